#pragma once
// A dataset's lifetime ledger (`dpbo ledger create FILE --budget ...`): one SQLite file per dataset
// that every run and study on the dataset given `--ledger FILE` charges each release to, before its
// noise is drawn, under one privacy filter (privacy_filter.hpp) fixed when the file is made.
//
// Entries are keyed by (run, charge): the run's token, kept in its journal or study file, and the
// number of the charge within the run. A resumed run or a replayed study charges the same numbers
// again; the ledger recognises each and counts it once, and refuses one whose event differs (that is
// not the run the token belongs to).
//
// Entries are hash-chained: each entry's hash is SHA-256 (libsodium's crypto_hash_sha256) of the
// previous one's and the entry's canonical text; the first one chains from the hash of the ledger's
// header (format, budget, filter, its orders and limits, creation time). The running sums and the
// last hash are kept in the file, so a charge costs constant time; verify() walks the entries once
// (linear time), recomputes the chain and the sums and compares them with what is stored.
//
// Every charge is one BEGIN IMMEDIATE transaction: two processes charging the same ledger take turns,
// and the second sees the first's charge before it decides. Commits are synced (they survive a power
// cut): a charge must never be lost once its release may have been made.
#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/host/privacy_filter.hpp"

struct sqlite3;

namespace dpbo {

// One charge as stored.
struct LifetimeCharge {
    std::size_t sequence = 0;  // 1-based, in the order charged
    std::string run;           // the run's token
    std::string source;        // "run results/x (repeat 1)", "study s.sqlite"
    std::size_t charge = 0;    // the charge's number within the run, from 0
    std::string event;         // PrivacyEvent::describe()
    std::string accountant;    // the module that priced it
    std::vector<double> cost;  // in the filter's coordinates
    std::string charged_at;    // UTC, ISO 8601
    std::string hash;          // 32 bytes
};

// What charge() did.
struct ChargeOutcome {
    bool counted_before = false;  // (run, charge) was in the ledger already: nothing added
    std::vector<double> sums;     // the running sums after it
    std::size_t entries = 0;
};

// A verified ledger's contents.
struct LedgerContents {
    std::string created_at;
    std::vector<LifetimeCharge> charges;  // by sequence
    std::vector<double> sums;
    std::string last_hash;  // 32 bytes: the header's hash when there is no entry
};

class LifetimeLedger {
public:
    static constexpr const char* kFormat = "dpbo-ledger/1";

    // A new ledger at `file` for `budget`, readable and writable by its owner only (mode 0600).
    // ValidationError naming the file when it exists or cannot be created, or the budget when no
    // filter can admit anything under it.
    static void create(const std::filesystem::path& file, const PrivacyBudget& budget);
    // An existing ledger; ValidationError naming the file when it is missing, not a dpbo ledger, of
    // another format, or its header does not match its hash chain.
    static std::unique_ptr<LifetimeLedger> open(const std::filesystem::path& file);
    ~LifetimeLedger();
    LifetimeLedger(const LifetimeLedger&) = delete;
    LifetimeLedger& operator=(const LifetimeLedger&) = delete;

    const std::filesystem::path& file() const { return file_; }
    const PrivacyFilter& filter() const { return filter_; }

    // The events charged for `run`, by charge number (one read, for a run that starts or resumes).
    std::vector<std::string> charged(const std::string& run) const;

    // In one BEGIN IMMEDIATE transaction: when (run, charge) is recorded with the same event, nothing
    // is added (counted_before); with another event, RunError naming both. Otherwise the cost is
    // added to the running sums; when the filter does not admit them, BudgetExceeded naming the file,
    // the budget, the release and what it would have spent (nothing written); else the entry is
    // written, chained, with the new sums, and committed before it returns.
    ChargeOutcome charge(const std::string& run, const std::string& source, std::size_t charge,
                         const std::string& event, const std::string& what, const std::string& accountant,
                         const std::vector<double>& cost);

    // Walks every entry: recomputes the hash chain from the header and the running sums from the
    // costs, and checks each prefix was admitted. ValidationError naming the file and the first entry
    // that does not match (changed, removed or inserted after it was written), or the stored sums.
    LedgerContents verify() const;

private:
    LifetimeLedger(std::filesystem::path file, sqlite3* db, PrivacyFilter filter, std::string header_hash);

    std::filesystem::path file_;
    sqlite3* db_ = nullptr;
    PrivacyFilter filter_;
    std::string header_hash_;
    mutable std::size_t statements_prepared_ = 0;
};

}  // namespace dpbo
