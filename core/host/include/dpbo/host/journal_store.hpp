#pragma once
// The storage behind run journals (dpbo run's crash-safe resume) and ask/tell studies: one SQLite
// file in WAL mode. It holds the batches a run asked to evaluate and the private releases the run
// made, each with the exact bits of its values. A study's batch is one trial per point, waiting (not
// handed out yet), running (handed to an ask/tell client), done (its values told) or failed (its
// point handed out again as a new trial). A run's batch is evaluated whole, so it is one row: the
// digest of its points (the run computes them again when it resumes; the journal only has to
// recognise them) and its answers — a few bytes per point, written with one statement. Every change
// is one transaction: a process killed at any moment leaves the file as it was before or after the
// change, never between.
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
struct sqlite3_stmt;

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

// A run's batch as evaluated: what the evaluator returned, but for the points themselves, which the
// resumed run asks for again and which must then have this digest.
struct EvaluatedBatch {
    std::size_t index = 0;
    bool per_record = false;
    std::size_t size = 0;  // points
    std::string points_digest;
    arma::mat values;
    arma::mat per_record_values;  // size × n when per_record, else empty
    arma::mat auxiliary;
    arma::uvec candidate_rows;
    std::vector<std::vector<std::string>> trial_events;  // event texts per point; empty unless PrivateTrials
};

class JournalStore {
public:
    // Written into every new file. A study file of the format before it (the same tables for a
    // study) is still read; a run journal of it, left by an earlier dpbo, is refused by name.
    static constexpr const char* kFormat = "dpbo-journal/2";
    static constexpr const char* kStudyFormatBefore = "dpbo-journal/1";

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
    // Batch `index` with a waiting trial per point (a study's).
    void add_batch(std::size_t index, const arma::mat& points, bool per_record);
    // Batch `index` as evaluated (a run's): one row, its points kept as their digest.
    void add_evaluated_batch(std::size_t index, const Evaluations& evaluations, bool per_record);
    // Batch `index` as add_evaluated_batch recorded it; nothing when there is none. RunError naming
    // the file when the row is not one (a study's batch, or a damaged file).
    std::optional<EvaluatedBatch> evaluated_batch(std::size_t index) const;
    // The digest a batch's points are recorded as: BLAKE2b-256 of their shape and exact bits.
    static std::string points_digest(const arma::mat& points);
    // The events a trial that is a private learner declared (a JSON array of event_text texts), for
    // point `position` of batch `batch`, replacing any recorded before.
    void set_trial_events(std::size_t batch, std::size_t position, const std::string& events_json);
    // Batch `batch`'s recorded trial events, one list of texts per point of its `size`; empty when
    // it has none. RunError naming the file when some points have them and others not.
    std::vector<std::vector<std::string>> trial_events(std::size_t batch, std::size_t size) const;

    // What this connection has done, for tests and benchmarks: rows inserted, updated or deleted
    // (SQLite's total_changes), transactions committed, statements prepared. A statement is prepared
    // once per connection and reused, so the last does not grow with the batches written.
    std::int64_t total_changes() const;
    std::size_t commits() const { return commits_; }
    std::size_t statements_prepared() const { return statements_prepared_; }

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
    // A new statement, finalised by its user (RunError naming the file when SQLite refuses it).
    sqlite3_stmt* prepare(const char* sql) const;
    // The connection's statement for `sql`, prepared on first use and reused after.
    sqlite3_stmt* cached(const char* sql) const;

    std::filesystem::path file_;
    sqlite3* db_ = nullptr;
    mutable std::map<std::string, sqlite3_stmt*> cache_;
    mutable std::size_t statements_prepared_ = 0;
    std::size_t commits_ = 0;
};

// Removes a journal file with its WAL and shared-memory companions.
void remove_journal_files(const std::filesystem::path& file);

}  // namespace dpbo
