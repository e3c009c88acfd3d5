#pragma once
// The SQLite wrappers the host's files share (run journals and studies, journal_store.cpp; a
// dataset's lifetime ledger, lifetime_ledger.cpp): opening a file, one prepared statement, and the
// words for SQLite's failures, which name the file and what kind of dpbo file it is (`noun`).
#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include <armadillo>
#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::sqlite {

namespace fs = std::filesystem;

// How long a writer waits for another process's transaction before giving up.
constexpr int kBusyTimeoutMs = 60'000;

// Doubles as their exact bits: a replay must see the very values the run saw.
inline std::string to_blob(const double* data, std::size_t count) {
    std::string out(count * sizeof(double), '\0');
    if (count > 0) std::memcpy(out.data(), data, out.size());
    return out;
}

inline arma::rowvec from_blob(const void* data, int bytes) {
    arma::rowvec out(static_cast<std::size_t>(bytes) / sizeof(double));
    if (!out.is_empty()) std::memcpy(out.memptr(), data, out.n_elem * sizeof(double));
    return out;
}

// A file SQLite finds damaged, or whose tables are not those dpbo made (its statements are fixed, so
// one that does not prepare meets another schema, and its values meet the schema's checks unless
// those were altered), is bad input (exit 2): the user's file, not the run, is at fault. Anything
// else is a failure while running (exit 1).
[[noreturn]] inline void throw_sqlite_failure(sqlite3* db, const fs::path& file, const std::string& doing,
                                              const std::string& why, bool preparing, const char* noun = "journal") {
    const int code = sqlite3_errcode(db) & 0xff;
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB || (preparing && code == SQLITE_ERROR) ||
        sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_CHECK)
        throw ValidationError(
            fmt::format("{} '{}' is damaged (SQLite: {}, while {}); it is not the file dpbo "
                        "wrote: restore it from a copy, or remove it and start afresh",
                        noun, file.string(), why, doing));
    throw RunError(fmt::format("{} '{}': SQLite failed while {}: {}", noun, file.string(), doing, why));
}

// One prepared statement; columns and parameters are 0- and 1-based as in SQLite. An owned one is
// finalised when done; a borrowed one (the store's cache) is reset and unbound, ready for its next use.
class Statement {
public:
    // Prepares `sql` for this use alone, counting it in `prepared`.
    Statement(std::size_t& prepared, sqlite3* db, const fs::path& file, const char* sql, const char* noun = "journal")
        : db_(db), file_(file), owned_(true), noun_(noun) {
        if (sqlite3_prepare_v2(db, sql, -1, &statement_, nullptr) != SQLITE_OK)
            throw_sqlite_failure(db_, file_, "preparing a statement", sqlite3_errmsg(db_), true, noun_);
        ++prepared;
    }
    // Uses one of the store's cached statements.
    Statement(sqlite3* db, const fs::path& file, sqlite3_stmt* cached)
        : db_(db), file_(file), statement_(cached), owned_(false) {}
    ~Statement() {
        if (owned_) {
            sqlite3_finalize(statement_);
        } else {
            sqlite3_reset(statement_);
            sqlite3_clear_bindings(statement_);
        }
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(statement_, i, v)); }
    Statement& bind(int i, double v) { return check(sqlite3_bind_double(statement_, i, v)); }
    Statement& bind(int i, const std::string& v) {
        return check(sqlite3_bind_text(statement_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
    }
    Statement& bind_blob(int i, const arma::rowvec& v) {
        const std::string bytes = to_blob(v.memptr(), v.n_elem);
        return check(sqlite3_bind_blob(statement_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
    }
    Statement& bind_null(int i) { return check(sqlite3_bind_null(statement_, i)); }
    Statement& bind_bytes(int i, const std::string& bytes) {
        return check(sqlite3_bind_blob(statement_, i, bytes.data(), static_cast<int>(bytes.size()), SQLITE_TRANSIENT));
    }

    // True while there is a row to read.
    bool step() {
        const int rc = sqlite3_step(statement_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail("reading or writing");
    }
    void run() {
        while (step()) {
        }
    }

    bool is_null(int c) const { return sqlite3_column_type(statement_, c) == SQLITE_NULL; }
    std::int64_t integer(int c) const { return sqlite3_column_int64(statement_, c); }
    double real(int c) const { return sqlite3_column_double(statement_, c); }
    std::string text(int c) const {
        const auto* p = sqlite3_column_text(statement_, c);
        return p ? std::string(reinterpret_cast<const char*>(p),
                               static_cast<std::size_t>(sqlite3_column_bytes(statement_, c)))
                 : std::string();
    }
    arma::rowvec blob(int c) const {
        const void* p = sqlite3_column_blob(statement_, c);
        return p ? from_blob(p, sqlite3_column_bytes(statement_, c)) : arma::rowvec();
    }
    std::string bytes(int c) const {
        const auto* p = static_cast<const char*>(sqlite3_column_blob(statement_, c));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(statement_, c))) : std::string();
    }

private:
    Statement& check(int rc) {
        if (rc != SQLITE_OK) fail("binding a value");
        return *this;
    }
    [[noreturn]] void fail(const char* doing) const {
        throw_sqlite_failure(db_, file_, doing, sqlite3_errmsg(db_), false, noun_);
    }

    sqlite3* db_;
    const fs::path& file_;
    sqlite3_stmt* statement_ = nullptr;
    bool owned_;
    const char* noun_ = "journal";
};

inline sqlite3* open_database(const fs::path& file, bool create, const char* noun = "journal") {
    sqlite3* db = nullptr;
    const int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_FULLMUTEX;
    if (sqlite3_open_v2(file.c_str(), &db, flags, nullptr) != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
        sqlite3_close(db);
        throw ValidationError(
            fmt::format("{} '{}' cannot be {}: {}", noun, file.string(), create ? "created" : "opened", why));
    }
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    // The last connection to close would checkpoint the WAL into the file, with four fsyncs: a few
    // milliseconds on every ask and tell. SQLite checkpoints on its own once the WAL has grown.
    sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
    return db;
}

}  // namespace dpbo::sqlite
