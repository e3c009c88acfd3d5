#pragma once
// What the run journal and the study journal share: checking that a replayed run asks for what the
// journal recorded, and rebuilding a batch's Evaluations from its done trials (a study) or its row
// (a run).
#include <cstddef>
#include <optional>
#include <vector>

#include "dpbo/evaluation.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::journal {

// RunError unless batch `recorded` has exactly `points` (bit for bit) and per-record values when
// `request` asks for them: a run that asks otherwise is not the run the journal belongs to.
void check_same_batch(const JournalStore& store, const StoredBatch& recorded, const arma::mat& points,
                      const EvaluationRequest& request);
// The same for a run's batch, recorded as the digest of its points.
void check_same_batch(const JournalStore& store, const EvaluatedBatch& recorded, const arma::mat& points,
                      const EvaluationRequest& request);

// A study's batches and trials, read in one pass when a replay starts: the replay holds the file's
// write lock, so nothing changes under it, and one pass costs far less than queries per batch. (A
// run's batch is one row, read by its key when the run asks for it.)
class Snapshot {
public:
    explicit Snapshot(const JournalStore& store);
    const StoredBatch* batch(std::size_t index) const;
    // The done trial of each position of batch `index`, or nothing while a position has none.
    std::optional<std::vector<StoredTrial>> done_trials(std::size_t index) const;

private:
    std::vector<StoredBatch> batches_;
    std::vector<std::vector<StoredTrial>> trials_;  // by batch
};

// The done trial of each position of `batch`, taken from `trials` (any of its trials, in any order),
// or nothing while a position has none.
std::optional<std::vector<StoredTrial>> done_trials(const StoredBatch& batch, const std::vector<StoredTrial>& trials);

Evaluations evaluations_of(const StoredBatch& batch, const std::vector<StoredTrial>& done, bool per_record);
// A run's batch as recorded, at `points` (the ones check_same_batch found to be its own).
Evaluations evaluations_of(EvaluatedBatch batch, const arma::mat& points, bool per_record);
// Trial events as the journal records them (event texts per point) read back; RunError naming the
// batch, the point and the text when one is not an event of a built-in kind.
std::vector<std::vector<PrivacyEvent>> trial_events_of(const std::vector<std::vector<std::string>>& texts,
                                                       std::size_t batch);

// Release `entry` as recorded, after checking it is `event`.
std::optional<RecordedRelease> recorded_release(const JournalStore& store, std::size_t entry,
                                                const PrivacyEvent& event);

}  // namespace dpbo::journal
