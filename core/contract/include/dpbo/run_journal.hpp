#pragma once
// What a run has done so far, kept where it survives the process: every batch of evaluations and
// every private release, in the order the run made them. A run given a journal that already holds
// some of them replays them instead of doing them again — the evaluator takes recorded batches
// instead of calling the objective, and the ledger charges a recorded release again (so the
// composition is the uninterrupted run's) but takes its value from the journal and draws no noise
// for it. So a run killed at any point and started again with the same job resumes where it was,
// and never releases anything twice. An ask/tell study is the same replay with batches whose values
// come from its clients (the host's study store implements both).
//
// Replay is exact because a run is a function of its seed, its job and what it was told: the
// evaluator hands each batch's objective its own generator (see Evaluator), and each release its own
// noise stream (see PrivacyLedger), so what is skipped consumes nothing the rest of the run needs.
// A journal refuses (RunError) a run that asks for other points or other releases than it recorded:
// that run is not the one the journal belongs to.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

struct PrivacyEvent;

// Thrown from Evaluator::evaluate when the journal has no values for a batch and must not evaluate
// it (an ask/tell study whose clients have not told them yet). It leaves the algorithm's run like any
// RunError — an algorithm must let RunError through — and the host ends the run there: everything
// before it is in the journal, and the next replay goes on from it.
class RunSuspended : public RunError {
public:
    explicit RunSuspended(const std::string& message);
    ~RunSuspended() override;
};

// A release as it was made: what the ledger logged (its values) and, for a row release, the figures
// it computed from the data to explain it (evaluation-only).
struct RecordedRelease {
    std::string event;  // PrivacyEvent::describe() of the charged event, `what` included
    arma::vec released;
    std::vector<ReleasedValue> evaluation_only;
};

class RunJournal {
public:
    virtual ~RunJournal();

    // Batch `index` (0-based, in the order the run asked) as evaluated before: the objective's own
    // answer, before the host's observation noise. Nothing when the batch is new; RunError when the
    // recorded batch has other points or was evaluated without per-record values now asked for;
    // RunSuspended when the journal may not evaluate it now.
    virtual std::optional<Evaluations> recorded_batch(std::size_t index, const arma::mat& points,
                                                      const EvaluationRequest& request) = 0;
    // Makes batch `index`'s answer durable before the run goes on.
    virtual void record_batch(std::size_t index, const Evaluations& evaluations, const EvaluationRequest& request) = 0;

    // Release `entry` of the ledger's log as made before, or nothing when it is new. RunError when
    // the recorded release is another event than `event`.
    virtual std::optional<RecordedRelease> recorded_release(std::size_t entry, const PrivacyEvent& event) = 0;
    // Makes release `entry` durable before its value reaches the algorithm.
    virtual void record_release(std::size_t entry, const RecordedRelease& release) = 0;
};

}  // namespace dpbo
