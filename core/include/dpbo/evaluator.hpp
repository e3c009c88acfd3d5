#pragma once
// Evaluates batches through one door, so budgets are counted and results are checked in one place.
// Serial today; a threaded or MPI evaluator implements the same interface.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"

namespace dpbo {

class Objective;

class Evaluator {
public:
    virtual ~Evaluator();
    // Checks the points lie in the objective's space, checks what the objective returned against
    // its contract (dpbo/evaluation_contract.hpp), adds the objective's declared observation noise
    // to the values, then counts the points.
    Evaluations evaluate(Objective& objective, const arma::mat& points,
                         const EvaluationRequest& request);
    std::size_t evaluations() const { return count_; }

protected:
    virtual Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                                       const EvaluationRequest& request) = 0;

private:
    std::size_t count_ = 0;
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
// request's generator's seed, the batch's number and the slice's number, so the run's own stream is
// not consumed: a deterministic objective gives the values the serial evaluator gives (up to the
// rounding of arithmetic whose order depends on how many points it is given at once), a randomised
// one values that depend on the number of workers. A batch of one point is evaluated as the serial
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
    std::uint64_t batches_ = 0;
};

}  // namespace dpbo
