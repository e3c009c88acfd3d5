#include "dpbo/host/lifetime_ledger.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "sqlite_statement.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using sqlite::Statement;

namespace {

constexpr const char* kNoun = "lifetime ledger";

const char* const kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE entries(seq INTEGER PRIMARY KEY, run TEXT NOT NULL, source TEXT NOT NULL, charge INTEGER NOT NULL,
  event TEXT NOT NULL, accountant TEXT NOT NULL, cost TEXT NOT NULL, charged_at TEXT NOT NULL, hash BLOB NOT NULL,
  UNIQUE(run, charge));
CREATE TABLE state(id INTEGER PRIMARY KEY CHECK(id = 1), entries INTEGER NOT NULL, sums TEXT NOT NULL,
  last_hash BLOB NOT NULL);
)sql";

// Numbers as hexadecimal floating point: the exact bits, read back by strtod.
std::string numbers_text(const std::vector<double>& values) {
    std::string out;
    for (std::size_t i = 0; i < values.size(); ++i) out += fmt::format("{}{:a}", i == 0 ? "" : ",", values[i]);
    return out;
}

std::vector<double> numbers_of(const std::string& text, const fs::path& file, const std::string& what) {
    std::vector<double> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        char* stop = nullptr;
        const double value = std::strtod(item.c_str(), &stop);
        if (item.empty() || stop != item.c_str() + item.size())
            throw ValidationError(fmt::format("{} '{}': {} holds '{}', not a number; the file is damaged", kNoun,
                                              file.string(), what, item));
        out.push_back(value);
        start = end + 1;
    }
    return out;
}

std::string hex(const std::string& bytes) {
    std::string out;
    for (const unsigned char c : bytes) out += fmt::format("{:02x}", c);
    return out;
}

std::string sha256(const std::string& previous, const std::string& text) {
    if (sodium_init() < 0) throw RunError("libsodium could not be initialised to hash a ledger entry");
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(previous.data()), previous.size());
    crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(text.data()), text.size());
    std::string out(crypto_hash_sha256_BYTES, '\0');
    crypto_hash_sha256_final(&state, reinterpret_cast<unsigned char*>(out.data()));
    return out;
}

std::string utc_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buffer;
}

std::string header_text(const std::string& budget, const PrivacyFilter& filter, const std::string& created_at) {
    return fmt::format("{}\nbudget {}\nfilter {}\norders {}\nlimits {}\ncreated_at {}\n", LifetimeLedger::kFormat,
                       budget, filter.name(), numbers_text(filter.orders()), numbers_text(filter.limits()), created_at);
}

// What the hash of an entry covers: every stored field but the hash itself.
std::string entry_text(const LifetimeCharge& c) {
    return fmt::format("entry {}\nrun {}\nsource {}\ncharge {}\nevent {}\naccountant {}\ncost {}\ncharged_at {}\n",
                       c.sequence, c.run, c.source, c.charge, c.event, c.accountant, numbers_text(c.cost),
                       c.charged_at);
}

void exec(sqlite3* db, const fs::path& file, const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string why = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        sqlite::throw_sqlite_failure(db, file, "running its statements", why, false, kNoun);
    }
}

// Rolled back unless committed.
class Transaction {
public:
    Transaction(sqlite3* db, const fs::path& file) : db_(db), file_(file) { exec(db_, file_, "BEGIN IMMEDIATE;"); }
    ~Transaction() {
        if (open_) sqlite3_exec(db_, "ROLLBACK;", nullptr, nullptr, nullptr);
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    void commit() {
        exec(db_, file_, "COMMIT;");
        open_ = false;
    }

private:
    sqlite3* db_;
    const fs::path& file_;
    bool open_ = true;
};

std::optional<std::string> find_meta(std::size_t& prepared, sqlite3* db, const fs::path& file, const char* key) {
    Statement s(prepared, db, file, "SELECT value FROM meta WHERE key = ?", kNoun);
    s.bind(1, std::string(key));
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

}  // namespace

void LifetimeLedger::create(const fs::path& file, const PrivacyBudget& budget) {
    const PrivacyFilter filter = PrivacyFilter::for_budget(budget);
    std::error_code ec;
    if (fs::exists(file, ec))
        throw ValidationError(fmt::format(
            "lifetime ledger '{}' exists already; a ledger is never overwritten (its charges are the dataset's "
            "history): choose another file",
            file.string()));
    // Made whole under a temporary name, owner-only from its first byte, then linked to its name,
    // which fails when the name was taken meanwhile: the file is never half made, nor overwritten.
    const fs::path temporary = file.string() + fmt::format(".creating-{}", ::getpid());
    const int fd = ::open(temporary.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0)
        throw ValidationError(
            fmt::format("lifetime ledger '{}' cannot be created: {}", file.string(), std::strerror(errno)));
    ::close(fd);
    const auto discard = [&] {
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(temporary.string() + suffix, ec);
    };
    try {
        sqlite3* db = sqlite::open_database(temporary, false, kNoun);
        const std::string created_at = utc_now();
        const std::string header = header_text(budget.text(), filter, created_at);
        const std::string genesis = sha256({}, header);
        try {
            std::size_t prepared = 0;
            exec(db, temporary, "PRAGMA journal_mode=DELETE;");
            exec(db, temporary, (std::string("BEGIN;") + kSchema).c_str());
            const std::map<std::string, std::string> meta{{"format", kFormat},
                                                          {"budget", budget.text()},
                                                          {"filter", filter.name()},
                                                          {"orders", numbers_text(filter.orders())},
                                                          {"limits", numbers_text(filter.limits())},
                                                          {"created_at", created_at}};
            for (const auto& [key, value] : meta) {
                Statement row(prepared, db, temporary, "INSERT INTO meta(key, value) VALUES(?, ?)", kNoun);
                row.bind(1, key).bind(2, value).run();
            }
            Statement state(prepared, db, temporary,
                            "INSERT INTO state(id, entries, sums, last_hash) VALUES(1, 0, ?, ?)", kNoun);
            state.bind(1, numbers_text(std::vector<double>(filter.size(), 0.0))).bind_bytes(2, genesis).run();
            exec(db, temporary, "COMMIT;");
            // WAL from the start, switched while no other process can have it open; checkpointed
            // so that the file linked below holds everything.
            exec(db, temporary, "PRAGMA journal_mode=WAL;");
            exec(db, temporary, "PRAGMA wal_checkpoint(TRUNCATE);");
        } catch (...) {
            sqlite3_close(db);
            throw;
        }
        sqlite3_close(db);
    } catch (...) {
        discard();
        throw;
    }
    if (::link(temporary.c_str(), file.c_str()) != 0) {
        const int error = errno;
        discard();
        throw ValidationError(
            fmt::format("lifetime ledger '{}' cannot be created: {}", file.string(),
                        error == EEXIST ? "it exists already; a ledger is never overwritten" : std::strerror(error)));
    }
    discard();
}

LifetimeLedger::LifetimeLedger(fs::path file, sqlite3* db, PrivacyFilter filter, std::string header_hash)
    : file_(std::move(file)), db_(db), filter_(std::move(filter)), header_hash_(std::move(header_hash)) {}

LifetimeLedger::~LifetimeLedger() { sqlite3_close(db_); }

std::unique_ptr<LifetimeLedger> LifetimeLedger::open(const fs::path& file) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw ValidationError(fmt::format(
            "lifetime ledger '{}' does not exist (or is not a file); create it with `dpbo ledger create {} --budget "
            "mu=M` (or epsilon=E,delta=D)",
            file.string(), file.string()));
    sqlite3* db = sqlite::open_database(file, false, kNoun);
    std::size_t prepared = 0;
    std::optional<std::string> format;
    try {
        format = find_meta(prepared, db, file, "format");
    } catch (const std::exception&) {
        format.reset();
    }
    if (!format) {
        sqlite3_close(db);
        throw ValidationError(fmt::format("'{}' is not a dpbo lifetime ledger (no format record)", file.string()));
    }
    try {
        if (*format != kFormat)
            throw ValidationError(fmt::format("'{}' is in format '{}'; this dpbo reads lifetime ledgers of '{}'",
                                              file.string(), *format, kFormat));
        const auto meta = [&](const char* key) {
            auto value = find_meta(prepared, db, file, key);
            if (!value)
                throw ValidationError(
                    fmt::format("lifetime ledger '{}' lacks its '{}' record; it is damaged", file.string(), key));
            return *value;
        };
        const std::string budget_text = meta("budget");
        PrivacyFilter filter = PrivacyFilter::for_budget(PrivacyBudget::parse(budget_text));
        // The filter is the budget's; stored orders or limits that differ were changed by hand.
        if (meta("filter") != filter.name() || meta("orders") != numbers_text(filter.orders()) ||
            meta("limits") != numbers_text(filter.limits()))
            throw ValidationError(fmt::format(
                "lifetime ledger '{}': its filter records do not match its budget '{}'; the header was changed after "
                "it was written",
                file.string(), budget_text));
        const std::string header_hash = sha256({}, header_text(budget_text, filter, meta("created_at")));
        // A charge must survive a power cut once its release may have been made.
        exec(db, file, "PRAGMA synchronous=FULL;");
        // The last connection to close folds the WAL into the file, so that a copy of the file alone
        // (a backup) holds every charge.
        sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
        return std::unique_ptr<LifetimeLedger>(new LifetimeLedger(file, db, std::move(filter), header_hash));
    } catch (...) {
        sqlite3_close(db);
        throw;
    }
}

std::vector<std::string> LifetimeLedger::charged(const std::string& run) const {
    Statement s(statements_prepared_, db_, file_, "SELECT charge, event FROM entries WHERE run = ? ORDER BY charge",
                kNoun);
    s.bind(1, run);
    std::vector<std::string> out;
    while (s.step()) {
        if (static_cast<std::size_t>(s.integer(0)) != out.size())
            throw ValidationError(
                fmt::format("lifetime ledger '{}': run {} has charge {} after {} charges; the file "
                            "is damaged",
                            file_.string(), run, s.integer(0), out.size()));
        out.push_back(s.text(1));
    }
    return out;
}

ChargeOutcome LifetimeLedger::charge(const std::string& run, const std::string& source, std::size_t charge,
                                     const std::string& event, const std::string& what, const std::string& accountant,
                                     const std::vector<double>& cost) {
    Transaction transaction(db_, file_);
    ChargeOutcome outcome;
    Statement head(statements_prepared_, db_, file_, "SELECT entries, sums, last_hash FROM state WHERE id = 1", kNoun);
    if (!head.step())
        throw ValidationError(
            fmt::format("lifetime ledger '{}' lacks its running sums; it is damaged", file_.string()));
    const auto entries = static_cast<std::size_t>(head.integer(0));
    const std::vector<double> sums = numbers_of(head.text(1), file_, "the running sums");
    const std::string last_hash = head.bytes(2);
    if (sums.size() != filter_.size())
        throw ValidationError(
            fmt::format("lifetime ledger '{}' holds {} running sums for a filter of {}; it is damaged", file_.string(),
                        sums.size(), filter_.size()));

    Statement existing(statements_prepared_, db_, file_, "SELECT event FROM entries WHERE run = ? AND charge = ?",
                       kNoun);
    existing.bind(1, run).bind(2, static_cast<std::int64_t>(charge));
    if (existing.step()) {
        const std::string recorded = existing.text(0);
        if (recorded != event)
            throw RunError(fmt::format(
                "lifetime ledger '{}': charge {} of run {} was '{}' and is now '{}'; this is not the run the ledger "
                "charged under that token (its journal or study file was replaced?)",
                file_.string(), charge + 1, run, recorded, event));
        outcome.counted_before = true;
        outcome.sums = sums;
        outcome.entries = entries;
        return outcome;  // read only: rolled back
    }
    Statement count(statements_prepared_, db_, file_, "SELECT COUNT(*) FROM entries WHERE run = ?", kNoun);
    count.bind(1, run);
    count.step();
    if (static_cast<std::size_t>(count.integer(0)) != charge)
        throw RunError(fmt::format("lifetime ledger '{}': run {} charges its charge {} after {} recorded charges",
                                   file_.string(), run, charge + 1, count.integer(0)));

    const std::vector<double> after = filter_.add(sums, cost);
    if (!filter_.admits(after, entries + 1)) {
        throw BudgetExceeded(fmt::format(
            "lifetime ledger '{}' (budget {}, {}): release refused before its noise was drawn: {} would spend {} and "
            "bring the dataset's spend to {}, which the {} filter does not admit; the {} earlier charge(s) stand",
            file_.string(), filter_.budget().text(), filter_.budget().describe(), what, filter_.describe_cost(cost),
            filter_.describe_spend(after), filter_.name(), entries));
    }
    LifetimeCharge entry{entries + 1, run, source, charge, event, accountant, cost, utc_now(), {}};
    entry.hash = sha256(last_hash, entry_text(entry));
    Statement insert(statements_prepared_, db_, file_,
                     "INSERT INTO entries(seq, run, source, charge, event, accountant, cost, charged_at, hash) "
                     "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     kNoun);
    insert.bind(1, static_cast<std::int64_t>(entry.sequence))
        .bind(2, run)
        .bind(3, source)
        .bind(4, static_cast<std::int64_t>(charge))
        .bind(5, event)
        .bind(6, accountant)
        .bind(7, numbers_text(cost))
        .bind(8, entry.charged_at)
        .bind_bytes(9, entry.hash)
        .run();
    Statement update(statements_prepared_, db_, file_,
                     "UPDATE state SET entries = ?, sums = ?, last_hash = ? WHERE id = 1", kNoun);
    update.bind(1, static_cast<std::int64_t>(entry.sequence)).bind(2, numbers_text(after)).bind_bytes(3, entry.hash);
    update.run();
    transaction.commit();
    outcome.sums = after;
    outcome.entries = entry.sequence;
    return outcome;
}

LedgerContents LifetimeLedger::verify() const {
    LedgerContents contents;
    {
        Statement created(statements_prepared_, db_, file_, "SELECT value FROM meta WHERE key = 'created_at'", kNoun);
        if (created.step()) contents.created_at = created.text(0);
    }
    std::vector<double> sums(filter_.size(), 0.0);
    std::string previous = header_hash_;
    Statement s(statements_prepared_, db_, file_,
                "SELECT seq, run, source, charge, event, accountant, cost, charged_at, hash FROM entries ORDER BY seq",
                kNoun);
    while (s.step()) {
        LifetimeCharge c;
        c.sequence = static_cast<std::size_t>(s.integer(0));
        c.run = s.text(1);
        c.source = s.text(2);
        c.charge = static_cast<std::size_t>(s.integer(3));
        c.event = s.text(4);
        c.accountant = s.text(5);
        c.cost = numbers_of(s.text(6), file_, fmt::format("entry {}'s cost", c.sequence));
        c.charged_at = s.text(7);
        c.hash = s.bytes(8);
        const std::size_t expected = contents.charges.size() + 1;
        const auto broken = [&](const std::string& why) {
            return ValidationError(fmt::format(
                "lifetime ledger '{}': entry {} (run {}, charge {}: '{}') {}; the ledger was changed after it was "
                "written and cannot be trusted: restore it from a copy",
                file_.string(), c.sequence, c.run, c.charge + 1, c.event, why));
        };
        if (c.sequence != expected)
            throw broken(fmt::format("comes where entry {} should (an entry was removed or inserted)", expected));
        if (c.cost.size() != filter_.size())
            throw broken(fmt::format("has {} cost coordinates for a filter of {}", c.cost.size(), filter_.size()));
        if (sha256(previous, entry_text(c)) != c.hash) throw broken("does not match its hash in the chain");
        sums = filter_.add(sums, c.cost);
        if (!filter_.admits(sums, contents.charges.size() + 1))
            throw broken("brings the spend beyond the budget, which no charge may");
        previous = c.hash;
        contents.charges.push_back(std::move(c));
    }
    Statement head(statements_prepared_, db_, file_, "SELECT entries, sums, last_hash FROM state WHERE id = 1", kNoun);
    if (!head.step())
        throw ValidationError(
            fmt::format("lifetime ledger '{}' lacks its running sums; it is damaged", file_.string()));
    const auto stored_entries = static_cast<std::size_t>(head.integer(0));
    if (stored_entries != contents.charges.size() || head.bytes(2) != previous)
        throw ValidationError(fmt::format(
            "lifetime ledger '{}': its running state records {} entries ending in hash {}, its entries are {} ending "
            "in {}: entries were removed or the state changed after they were written; restore it from a copy",
            file_.string(), stored_entries, hex(head.bytes(2)).substr(0, 16), contents.charges.size(),
            hex(previous).substr(0, 16)));
    if (numbers_of(head.text(1), file_, "the running sums") != sums)
        throw ValidationError(fmt::format(
            "lifetime ledger '{}': its running sums ({}) differ from the sums of its entries ({}); the state was "
            "changed after it was written; restore it from a copy",
            file_.string(), head.text(1), numbers_text(sums)));
    contents.sums = sums;
    contents.last_hash = previous;
    return contents;
}

}  // namespace dpbo
