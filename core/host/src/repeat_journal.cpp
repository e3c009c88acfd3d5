#include "dpbo/host/repeat_journal.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/ledger_gate.hpp"
#include "journal_replay.hpp"

namespace dpbo {

namespace fs = std::filesystem;

RepeatJournal::RepeatJournal(const fs::path& file, const std::string& job_json, std::size_t repeat,
                             std::uint64_t experiment_seed)
    : file_(file) {
    std::error_code ec;
    resumed_ = fs::exists(file, ec);
    if (resumed_) {
        store_ = JournalStore::open(file, "run");
        if (store_->meta("job") != job_json || store_->meta("repeat") != std::to_string(repeat))
            throw ValidationError(
                fmt::format("'{}' is the journal of another job or repeat; remove it to run this one", file.string()));
        const std::string seed = store_->meta("experiment_seed");
        experiment_seed_ = std::stoull(seed);
        recorded_batches_ = store_->batch_count();
        recorded_releases_ = store_->release_count();
    } else {
        store_ = JournalStore::create(file, "run",
                                      {{"job", job_json},
                                       {"repeat", std::to_string(repeat)},
                                       {"experiment_seed", std::to_string(experiment_seed)}});
        experiment_seed_ = experiment_seed;
    }
}

RepeatJournal::~RepeatJournal() = default;

std::string RepeatJournal::bind_ledger(const fs::path& ledger) {
    std::error_code ec;
    const std::string wanted = ledger.empty() ? std::string() : fs::weakly_canonical(ledger, ec).string();
    const std::optional<std::string> bound = store_->find_meta("ledger");
    // A journal from before lifetime ledgers, or one whose run charged none: its charges are all
    // made again now (charging what was made before is late, never missing).
    if (bound && *bound != wanted)
        throw ValidationError(
            fmt::format("'{}' is the journal of a run started {}; resume it {}, so that its charges go to one ledger",
                        file_.string(), bound->empty() ? "without --ledger" : fmt::format("with --ledger '{}'", *bound),
                        bound->empty() ? "without --ledger" : fmt::format("with --ledger '{}'", *bound)));
    if (!bound) store_->set_meta("ledger", wanted);
    if (wanted.empty()) return {};
    std::optional<std::string> token = store_->find_meta("ledger_run");
    if (!token) {
        token = new_ledger_run_token();
        store_->set_meta("ledger_run", *token);
    }
    return *token;
}

void RepeatJournal::remove() {
    store_.reset();
    remove_journal_files(file_);
}

std::optional<Evaluations> RepeatJournal::recorded_batch(std::size_t index, const arma::mat& points,
                                                         const EvaluationRequest& request) {
    if (index >= recorded_batches_) return std::nullopt;
    std::optional<EvaluatedBatch> batch = store_->evaluated_batch(index);
    if (!batch)
        throw RunError(fmt::format("batch {} of '{}' is missing; the file is damaged", index + 1, file_.string()));
    try {
        journal::check_same_batch(*store_, *batch, points, request);
    } catch (const RunError&) {
        diverged_ = true;
        throw;
    }
    return journal::evaluations_of(std::move(*batch), points, request.per_record);
}

void RepeatJournal::record_batch(std::size_t index, const Evaluations& evaluations, const EvaluationRequest& request) {
    JournalStore::Transaction transaction(*store_);
    store_->add_evaluated_batch(index, evaluations, request.per_record);
    transaction.commit();
}

std::optional<RecordedRelease> RepeatJournal::recorded_release(std::size_t entry, const PrivacyEvent& event) {
    try {
        return journal::recorded_release(*store_, entry, event);
    } catch (const RunError&) {
        diverged_ = true;
        throw;
    }
}

void RepeatJournal::record_release(std::size_t entry, const RecordedRelease& release) {
    // On disk before the algorithm sees the value: a release lost with the machine would be drawn
    // again with fresh noise when the run resumes without --seed.
    store_->set_synced(true);
    store_->add_release(entry, release);
    store_->set_synced(false);
}

}  // namespace dpbo
