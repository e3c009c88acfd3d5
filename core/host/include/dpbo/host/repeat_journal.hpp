#pragma once
// dpbo run's journal of one repeat (journal.sqlite beside its result.json): every batch the run
// evaluates and every release it makes, durable as it happens. A repeat killed at any moment and run
// again with the same job replays the journal — no evaluation it holds is repeated, no release is
// drawn again — and goes on from where it stopped; with --seed the result is the uninterrupted one.
// Once the repeat's result is written the journal is removed: it holds the objective's unprivatised
// answers, which have no business outliving the run.
//
// A batch is one transaction of one row (JournalStore::add_evaluated_batch): its answers and the
// digest of its points. The resumed run computes the points again — a grid, a random draw from the
// recorded experiment seed, an optimiser's proposal — so the journal need only recognise them.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "dpbo/run_journal.hpp"

namespace dpbo {

class JournalStore;
class RepeatJournal final : public RunJournal {
public:
    static constexpr const char* kFileName = "journal.sqlite";

    // Resumes `file` when it exists — refusing (ValidationError) one written for another job or
    // repeat — or creates it, recording `experiment_seed` as the repeat's.
    RepeatJournal(const std::filesystem::path& file, const std::string& job_json, std::size_t repeat,
                  std::uint64_t experiment_seed);
    ~RepeatJournal() override;

    bool resumed() const { return resumed_; }
    // The seed the repeat started with (a run without --seed draws it once, and resumes with it).
    std::uint64_t experiment_seed() const { return experiment_seed_; }
    std::size_t recorded_batches() const { return recorded_batches_; }
    std::size_t recorded_releases() const { return recorded_releases_; }
    // The run asked for a batch or a release other than the one recorded: running it again cannot
    // resume it.
    bool diverged() const { return diverged_; }
    // Binds the repeat to the lifetime ledger `ledger` (empty: none) and returns the repeat's token in
    // it, made when first bound and kept in the journal so that the resumed repeat charges under the
    // same one. ValidationError naming the journal when it was bound to another ledger (or to one,
    // and `ledger` is empty): a resumed repeat must charge the ledger its first part charged.
    std::string bind_ledger(const std::filesystem::path& ledger);
    // Removes the journal: the repeat is complete, or was refused before it did anything.
    void remove();
    // The file's store, to read what it holds and what writing it took (tests, the benchmark).
    const JournalStore& store() const { return *store_; }

    // A batch recorded before the journal was opened (by the killed run), read when asked for: a run
    // never asks again for a batch it recorded itself.
    std::optional<Evaluations> recorded_batch(std::size_t index, const arma::mat& points,
                                              const EvaluationRequest& request) override;
    void record_batch(std::size_t index, const Evaluations& evaluations, const EvaluationRequest& request) override;
    std::optional<RecordedRelease> recorded_release(std::size_t entry, const PrivacyEvent& event) override;
    void record_release(std::size_t entry, const RecordedRelease& release) override;

private:
    std::filesystem::path file_;
    std::unique_ptr<JournalStore> store_;
    bool resumed_ = false;
    std::uint64_t experiment_seed_ = 0;
    std::size_t recorded_batches_ = 0;
    std::size_t recorded_releases_ = 0;
    bool diverged_ = false;
};

}  // namespace dpbo
