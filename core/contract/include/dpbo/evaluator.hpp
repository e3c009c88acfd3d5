#pragma once
// Evaluates batches through one door, so budgets are counted, results are checked and the run's
// journal is kept in one place. Serial, threaded or MPI evaluators implement evaluate_batch; the
// threaded one (dpbo/host/parallel_evaluator.hpp) and the MPI one belong to the host.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"

namespace dpbo {

class Objective;
class PrivacyLedger;
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
    Evaluations evaluate(Objective& objective, const arma::mat& points, const EvaluationRequest& request);
    std::size_t evaluations() const { return count_; }
    std::size_t batches() const { return batches_; }

    // Every batch from now on is taken from (or recorded in) `journal`, which must outlive the
    // evaluator's use; null detaches it.
    void attach_journal(RunJournal* journal) { journal_ = journal; }

    // Trials that are private learners (PrivateTrials): by default the host charges each point's
    // trial_events to the attached ledger as its batch returns (composition of every trial). An
    // algorithm that charged a private selection among the trials before the first one
    // (RepeatAndSelectEvent) calls cover_trials with the selection's trial bound: from then on each
    // trial must be covered by it (events_dominated_by) or the run fails, and is not charged again.
    void cover_trials(std::vector<PrivacyEvent> bound) { trial_cover_ = std::move(bound); }
    const std::optional<std::vector<PrivacyEvent>>& trial_cover() const { return trial_cover_; }
    // The ledger trial events are charged to and whose trial_noise() the batches draw from (the host
    // attaches the run's); null detaches it.
    void attach_trial_ledger(PrivacyLedger* ledger) { trial_ledger_ = ledger; }

protected:
    virtual Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                                       const EvaluationRequest& request) = 0;

private:
    std::size_t count_ = 0;
    std::size_t batches_ = 0;
    RunJournal* journal_ = nullptr;
    PrivacyLedger* trial_ledger_ = nullptr;
    std::optional<std::vector<PrivacyEvent>> trial_cover_;
};

class SerialEvaluator final : public Evaluator {
protected:
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;
};

}  // namespace dpbo
