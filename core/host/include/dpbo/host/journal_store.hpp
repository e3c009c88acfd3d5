#pragma once
// The storage behind run journals (dpbo run's crash-safe resume) and ask/tell studies: one SQLite
// file in WAL mode. It holds the batches a run asked to evaluate — each as one trial per point,
// waiting (not handed out yet), running (handed to an ask/tell client), done (its values told or
// evaluated) or failed (its point handed out again as a new trial) — and the private releases the
// run made, each with the exact bits of its values. Every change is one transaction: a process
// killed at any moment leaves the file as it was before or after the change, never between.
//
// The file holds the objective's unprivatised answers (and, for runs with --seed, everything needed
// to reproduce the noise): it is inside the trust boundary, like the data.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/run_journal.hpp"

struct sqlite3;

namespace dpbo {

enum class TrialState { Waiting, Running, Done, Failed };
std::string to_string(TrialState state);

struct StoredTrial {
    std::int64_t id = 0;
    std::size_t batch = 0;
    std::size_t position = 0;  // row of the batch
    TrialState state = TrialState::Waiting;
    arma::rowvec point;
    arma::rowvec values;      // done: one per output
    arma::rowvec per_record;  // done, when the batch asked for per-record values
    arma::rowvec auxiliary;   // done, when the objective declares auxiliary outputs
    std::optional<std::size_t> candidate_row;
    std::string failure;    // failed: why, as told
    double asked_at = 0.0;  // seconds since the epoch; 0 when not yet
    double told_at = 0.0;
};

struct StoredBatch {
    std::size_t index = 0;
    bool per_record = false;
    arma::mat points;
};

class JournalStore {
public:
    static constexpr const char* kFormat = "dpbo-journal/1";

    // A new file of `kind` ("run" or "study") with `meta` (key → text); ValidationError naming the
    // file when it exists or cannot be created.
    static std::unique_ptr<JournalStore> create(const std::filesystem::path& file, const std::string& kind,
                                                const std::map<std::string, std::string>& meta);
    // An existing file of `kind`; ValidationError naming the file when it is missing, is no dpbo
    // journal, or is of another format or kind.
    static std::unique_ptr<JournalStore> open(const std::filesystem::path& file, const std::string& kind);
    ~JournalStore();
    JournalStore(const JournalStore&) = delete;
    JournalStore& operator=(const JournalStore&) = delete;

    const std::filesystem::path& file() const { return file_; }

    // Synced: every commit reaches the disk before it returns (survives a power cut, a few ms each).
    // Otherwise (as opened) a commit survives the process being killed but not the machine failing.
    void set_synced(bool synced);
    // ValidationError naming the file and the key when it is missing.
    std::string meta(const std::string& key) const;
    std::optional<std::string> find_meta(const std::string& key) const;
    void set_meta(const std::string& key, const std::string& value);

    // BEGIN IMMEDIATE: one writer at a time; another process waits for it (up to a minute, then a
    // RunError naming the file). Rolled back unless committed.
    class Transaction {
    public:
        explicit Transaction(JournalStore& store);
        ~Transaction();
        Transaction(const Transaction&) = delete;
        Transaction& operator=(const Transaction&) = delete;
        void commit();

    private:
        JournalStore& store_;
        bool open_ = true;
    };

    std::size_t batch_count() const;
    std::optional<StoredBatch> batch(std::size_t index) const;
    // Batch `index` with a waiting trial per point.
    void add_batch(std::size_t index, const arma::mat& points, bool per_record);
    // Batch `index` with a done trial per point, holding `evaluations`.
    void add_evaluated_batch(std::size_t index, const Evaluations& evaluations, bool per_record);

    // Every batch with its points (one pass over the file, for a replay that reads them all).
    std::vector<StoredBatch> batches() const;
    std::vector<StoredTrial> trials() const;  // all, by id
    std::vector<StoredTrial> trials_of(std::size_t batch) const;
    std::optional<StoredTrial> trial(std::int64_t id) const;
    void mark_running(std::int64_t id);
    void mark_done(std::int64_t id, const arma::rowvec& values, const arma::rowvec& per_record,
                   const arma::rowvec& auxiliary);
    // Marks `id` failed and adds a waiting trial for its point; returns the new trial's id.
    std::int64_t mark_failed(std::int64_t id, const std::string& reason);

    std::size_t release_count() const;
    std::optional<RecordedRelease> release(std::size_t entry) const;
    void add_release(std::size_t entry, const RecordedRelease& release);

private:
    JournalStore(std::filesystem::path file, sqlite3* db);
    void exec(const std::string& sql) const;
    std::size_t count(const char* sql) const;  // the one number a COUNT query returns

    std::filesystem::path file_;
    sqlite3* db_ = nullptr;
};

// Removes a journal file with its WAL and shared-memory companions.
void remove_journal_files(const std::filesystem::path& file);

}  // namespace dpbo
