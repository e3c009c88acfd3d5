#include "journal_replay.hpp"

#include <cstring>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::journal {

namespace {

bool same_bits(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols &&
           (a.is_empty() || std::memcmp(a.memptr(), b.memptr(), a.n_elem * sizeof(double)) == 0);
}

std::string not_this_run(const JournalStore& store) {
    return fmt::format("'{}' belongs to another run (another job, seed or dpbo build); remove it to start afresh",
                       store.file().string());
}

}  // namespace

void check_same_batch(const JournalStore& store, const StoredBatch& recorded, const arma::mat& points,
                      const EvaluationRequest& request) {
    if (!same_bits(recorded.points, points))
        throw RunError(
            fmt::format("the run asks to evaluate batch {} at {} point(s) other than the {} its journal "
                        "recorded: {}",
                        recorded.index + 1, points.n_rows, recorded.points.n_rows, not_this_run(store)));
    if (request.per_record && !recorded.per_record)
        throw RunError(
            fmt::format("the run asks for per-record values of batch {}, which its journal recorded "
                        "without them: {}",
                        recorded.index + 1, not_this_run(store)));
}

void check_same_batch(const JournalStore& store, const EvaluatedBatch& recorded, const arma::mat& points,
                      const EvaluationRequest& request) {
    if (points.n_rows != recorded.size || JournalStore::points_digest(points) != recorded.points_digest)
        throw RunError(
            fmt::format("the run asks to evaluate batch {} at {} point(s) other than the {} its journal "
                        "recorded: {}",
                        recorded.index + 1, points.n_rows, recorded.size, not_this_run(store)));
    if (request.per_record && !recorded.per_record)
        throw RunError(
            fmt::format("the run asks for per-record values of batch {}, which its journal recorded "
                        "without them: {}",
                        recorded.index + 1, not_this_run(store)));
}

Snapshot::Snapshot(const JournalStore& store) : batches_(store.batches()), trials_(batches_.size()) {
    for (StoredTrial& trial : store.trials())
        if (trial.batch < trials_.size()) trials_[trial.batch].push_back(std::move(trial));
}

const StoredBatch* Snapshot::batch(std::size_t index) const {
    return index < batches_.size() && batches_[index].index == index ? &batches_[index] : nullptr;
}

std::optional<std::vector<StoredTrial>> Snapshot::done_trials(std::size_t index) const {
    const StoredBatch* recorded = batch(index);
    if (recorded == nullptr) return std::nullopt;
    return journal::done_trials(*recorded, trials_[index]);
}

std::optional<std::vector<StoredTrial>> done_trials(const StoredBatch& batch, const std::vector<StoredTrial>& trials) {
    std::vector<const StoredTrial*> by_position(batch.points.n_rows, nullptr);
    for (const StoredTrial& trial : trials)
        if (trial.batch == batch.index && trial.state == TrialState::Done && trial.position < by_position.size())
            by_position[trial.position] = &trial;
    std::vector<StoredTrial> out;
    for (const StoredTrial* trial : by_position) {
        if (trial == nullptr) return std::nullopt;
        out.push_back(*trial);
    }
    return out;
}

Evaluations evaluations_of(const StoredBatch& batch, const std::vector<StoredTrial>& done, bool per_record) {
    Evaluations e;
    e.points = batch.points;
    const std::size_t b = done.size();
    e.values.set_size(b, done.front().values.n_elem);
    if (per_record) e.per_record.set_size(b, done.front().per_record.n_elem);
    if (!done.front().auxiliary.is_empty()) e.auxiliary.set_size(b, done.front().auxiliary.n_elem);
    if (done.front().candidate_row) e.candidate_rows.set_size(b);
    for (std::size_t i = 0; i < b; ++i) {
        const StoredTrial& t = done[i];
        // Shapes were checked when the values were told or evaluated; a file edited since is refused.
        if (t.values.n_elem != e.values.n_cols || (per_record && t.per_record.n_elem != e.per_record.n_cols) ||
            t.auxiliary.n_elem != e.auxiliary.n_cols || t.candidate_row.has_value() != !e.candidate_rows.is_empty())
            throw RunError(fmt::format("batch {} of the journal holds trials of different shapes", batch.index + 1));
        e.values.row(i) = t.values;
        if (per_record) e.per_record.row(i) = t.per_record;
        if (!e.auxiliary.is_empty()) e.auxiliary.row(i) = t.auxiliary;
        if (t.candidate_row) e.candidate_rows(i) = *t.candidate_row;
    }
    return e;
}

Evaluations evaluations_of(EvaluatedBatch batch, const arma::mat& points, bool per_record) {
    Evaluations e;
    e.points = points;
    e.values = std::move(batch.values);
    if (per_record) e.per_record = std::move(batch.per_record_values);
    e.auxiliary = std::move(batch.auxiliary);
    e.candidate_rows = std::move(batch.candidate_rows);
    e.trial_events = trial_events_of(batch.trial_events, batch.index);
    return e;
}

std::vector<std::vector<PrivacyEvent>> trial_events_of(const std::vector<std::vector<std::string>>& texts,
                                                       std::size_t batch) {
    std::vector<std::vector<PrivacyEvent>> out;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        out.emplace_back();
        for (const std::string& text : texts[i]) {
            try {
                out.back().push_back(parse_builtin_event(text));
            } catch (const ValidationError& e) {
                throw RunError(fmt::format("batch {}, point {} of the journal records a trial event it cannot read: {}",
                                           batch + 1, i, e.what()));
            }
        }
    }
    return out;
}

std::optional<RecordedRelease> recorded_release(const JournalStore& store, std::size_t entry,
                                                const PrivacyEvent& event) {
    std::optional<RecordedRelease> recorded = store.release(entry);
    if (recorded && recorded->event != event.describe())
        throw RunError(fmt::format("the run's release {} is {}, but its journal recorded {}: {}", entry + 1,
                                   event.describe(), recorded->event, not_this_run(store)));
    return recorded;
}

}  // namespace dpbo::journal
