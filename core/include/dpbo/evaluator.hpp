#pragma once
// Evaluates batches through one door, so budgets are counted, results are checked and the run's
// journal is kept in one place. Serial, threaded or MPI evaluators implement evaluate_batch.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"

namespace dpbo {

class Objective;
class RunJournal;

class Evaluator {
public:
    virtual ~Evaluator();
    // Checks the points lie in the objective's space, takes the batch from the journal when it holds
    // it and otherwise has it evaluated (and journaled), checks what the objective returned against
    // its contract (dpbo/evaluation_contract.hpp), adds the objective's declared observation noise
    // to the values, then counts the points.
    //
    // The objective's experiment randomness comes from a generator of its own for each batch, seeded
    // from the request's generator's seed and the batch's number, never from the request's generator
    // itself: a batch taken from the journal then consumes nothing the rest of the run needs. The
    // observation noise is drawn from the request's generator, recorded batch or not.
    Evaluations evaluate(Objective& objective, const arma::mat& points,
                         const EvaluationRequest& request);
    std::size_t evaluations() const { return count_; }
    std::size_t batches() const { return batches_; }

    // Every batch from now on is taken from (or recorded in) `journal`, which must outlive the
    // evaluator's use; null detaches it.
    void attach_journal(RunJournal* journal) { journal_ = journal; }

protected:
    virtual Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                                       const EvaluationRequest& request) = 0;

private:
    std::size_t count_ = 0;
    std::size_t batches_ = 0;
    RunJournal* journal_ = nullptr;
};

class SerialEvaluator final : public Evaluator {
protected:
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;
};

// Evaluates a batch of b ≥ 2 points on up to `workers` threads, as contiguous slices of the batch
// merged back in order. A thread-safe objective (Objective::thread_safe) serves every slice; any other
// serves the first, and each further slice goes to a replica — an objective built like it, one per
// extra worker. A slice's experiment randomness comes from its own generator, seeded from the
// batch's generator's seed and the slice's number: a deterministic objective gives the values the
// serial evaluator gives (up to the rounding of arithmetic whose order depends on how many points it
// is given at once), a randomised one values that depend on the number of workers. A batch of one point is evaluated as the serial
// evaluator does.
class ParallelEvaluator final : public Evaluator {
public:
    // Throws ValidationError for fewer than 2 workers or fewer replicas than the objective will need.
    ParallelEvaluator(std::size_t workers, std::vector<std::shared_ptr<Objective>> replicas);
    std::size_t workers() const { return workers_; }

protected:
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;

private:
    std::size_t workers_;
    std::vector<std::shared_ptr<Objective>> replicas_;
};

}  // namespace dpbo
