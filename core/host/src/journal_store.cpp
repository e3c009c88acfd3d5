#include "dpbo/host/journal_store.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "dpbo/errors.hpp"
#include "sqlite_statement.hpp"

namespace dpbo {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using sqlite::from_blob;
using sqlite::open_database;
using sqlite::Statement;
using sqlite::throw_sqlite_failure;
using sqlite::to_blob;

namespace {

const char* const kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE batches(batch INTEGER PRIMARY KEY, per_record INTEGER NOT NULL, size INTEGER NOT NULL,
  points_digest BLOB, vals BLOB, per_record_vals BLOB, auxiliary BLOB, candidate_rows BLOB, evaluated_at REAL);
CREATE TABLE trials(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  batch INTEGER NOT NULL REFERENCES batches(batch),
  position INTEGER NOT NULL,
  state TEXT NOT NULL CHECK(state IN ('waiting', 'running', 'done', 'failed')),
  point BLOB NOT NULL,
  vals BLOB, per_record BLOB, auxiliary BLOB, candidate_row INTEGER,
  failure TEXT, asked_at REAL, told_at REAL);
CREATE INDEX trials_by_batch ON trials(batch, position);
CREATE TABLE releases(entry INTEGER PRIMARY KEY, event TEXT NOT NULL, released BLOB NOT NULL,
  evaluation_only TEXT NOT NULL, made_at REAL NOT NULL);
)sql";

// The events each trial that is a private learner declared (PrivateTrials), one row per point of a
// batch: a JSON array of event texts (event_text). Added to files of the same format when they are
// opened: a file written before has no such trials (their objectives need a newer plugin ABI).
const char* const kTrialEventsSchema = R"sql(
CREATE TABLE IF NOT EXISTS trial_events(batch INTEGER NOT NULL, position INTEGER NOT NULL, events TEXT NOT NULL,
  PRIMARY KEY(batch, position));
)sql";

// fsync of a file by its name; the failure's description, or empty.
std::string sync_to_disk(const fs::path& file) {
    const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return std::strerror(errno);
    std::string failure = ::fsync(fd) == 0 ? std::string() : std::strerror(errno);
    if (::close(fd) != 0 && failure.empty()) failure = std::strerror(errno);
    return failure;
}

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string blob_of(const arma::mat& m) { return to_blob(m.memptr(), m.n_elem); }

std::string blob_of(const arma::uvec& rows) {
    std::vector<std::int64_t> wide(rows.begin(), rows.end());
    std::string out(wide.size() * sizeof(std::int64_t), '\0');
    if (!wide.empty()) std::memcpy(out.data(), wide.data(), out.size());
    return out;
}

TrialState state_from(const std::string& text) {
    if (text == "waiting") return TrialState::Waiting;
    if (text == "running") return TrialState::Running;
    if (text == "done") return TrialState::Done;
    return TrialState::Failed;
}

// Exact bits as hexadecimal text, for the values that travel inside JSON.
std::string hex_of(const arma::mat& m) {
    const std::string bytes = to_blob(m.memptr(), m.n_elem);
    std::string out;
    out.reserve(2 * bytes.size());
    for (unsigned char c : bytes) out += fmt::format("{:02x}", c);
    return out;
}

arma::mat mat_of_hex(const std::string& hex, std::size_t rows, std::size_t cols) {
    arma::mat out(rows, cols);
    if (hex.size() != 2 * out.n_elem * sizeof(double))
        throw RunError("a journaled release figure has the wrong length");
    std::string bytes(hex.size() / 2, '\0');
    for (std::size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<char>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
    if (!out.is_empty()) std::memcpy(out.memptr(), bytes.data(), bytes.size());
    return out;
}

json values_json(const std::vector<ReleasedValue>& values) {
    json out = json::array();
    for (const ReleasedValue& v : values)
        out.push_back({{"name", v.name},
                       {"description", v.description},
                       {"rows", v.value.n_rows},
                       {"cols", v.value.n_cols},
                       {"bits", hex_of(v.value)}});
    return out;
}

}  // namespace

std::string to_string(TrialState state) {
    switch (state) {
        case TrialState::Waiting:
            return "waiting";
        case TrialState::Running:
            return "running";
        case TrialState::Done:
            return "done";
        case TrialState::Failed:
            return "failed";
    }
    return "failed";
}

JournalStore::JournalStore(fs::path file, sqlite3* db) : file_(std::move(file)), db_(db) {}

JournalStore::~JournalStore() {
    for (auto& [sql, statement] : cache_) sqlite3_finalize(statement);
    sqlite3_close(db_);
}

sqlite3_stmt* JournalStore::cached(const char* sql) const {
    auto found = cache_.find(sql);
    if (found != cache_.end()) return found->second;
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql, -1, &statement, nullptr) != SQLITE_OK)
        throw_sqlite_failure(db_, file_, "preparing a statement", sqlite3_errmsg(db_), true);
    ++statements_prepared_;
    cache_.emplace(sql, statement);
    return statement;
}

std::int64_t JournalStore::total_changes() const { return sqlite3_total_changes64(db_); }

std::string JournalStore::points_digest(const arma::mat& points) {
    // libsodium picks its implementations once; later calls return at once.
    if (sodium_init() < 0) throw RunError("libsodium could not be initialised to digest a journal batch");
    crypto_generichash_state state;
    crypto_generichash_init(&state, nullptr, 0, crypto_generichash_BYTES);
    const std::uint64_t shape[2] = {points.n_rows, points.n_cols};
    crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(shape), sizeof shape);
    if (!points.is_empty())
        crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(points.memptr()),
                                  points.n_elem * sizeof(double));
    std::string out(crypto_generichash_BYTES, '\0');
    crypto_generichash_final(&state, reinterpret_cast<unsigned char*>(out.data()), out.size());
    return out;
}

void JournalStore::exec(const std::string& sql) const {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string why = message ? message : sqlite3_errmsg(db_);
        sqlite3_free(message);
        throw_sqlite_failure(db_, file_, "running its statements", why, false);
    }
}

std::unique_ptr<JournalStore> JournalStore::create(const fs::path& file, const std::string& kind,
                                                   const std::map<std::string, std::string>& meta) {
    std::error_code ec;
    if (fs::exists(file, ec))
        throw ValidationError(fmt::format("'{}' exists already; choose another file or remove it", file.string()));
    // SQLite would take a write-ahead log left beside the name by a removed journal (perhaps still open
    // in another process) as the new file's own: the new file would be damaged, or silently hold
    // another journal's records.
    for (const char* suffix : {"-wal", "-shm"})
        if (const fs::path left = file.string() + suffix; fs::exists(left, ec))
            throw ValidationError(
                fmt::format("'{}' exists beside '{}': a removed journal's SQLite file (a process may "
                            "still have it open); remove it or choose another file",
                            left.string(), file.string()));
    // Written under a temporary name and renamed when complete, so a file of this name is whole.
    const fs::path temporary = file.string() + ".creating";
    remove_journal_files(temporary);
    std::unique_ptr<JournalStore> store(new JournalStore(temporary, open_database(temporary, true)));
    // The temporary is nobody's journal until renamed, and one left by a crash is removed above: so
    // it is written without syncs (each sync of the file, of its rollback journal and of their
    // folder costs about a millisecond, ten of them before), synced once below, and put in WAL
    // mode here, so that open() need not convert it (four syncs more). Its log is checkpointed into
    // the file before the rename: the renamed file alone holds everything.
    sqlite3_db_config(store->db_, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 0, nullptr);
    store->exec("PRAGMA synchronous=OFF; PRAGMA journal_mode=WAL;");
    store->exec(std::string("BEGIN;") + kSchema + kTrialEventsSchema);
    std::map<std::string, std::string> all = meta;
    all["format"] = kFormat;
    all["kind"] = kind;
    for (const auto& [key, value] : all) {
        Statement row(store->statements_prepared_, store->db_, store->file_,
                      "INSERT INTO meta(key, value) VALUES(?, ?)");
        row.bind(1, key).bind(2, value).run();
    }
    store->exec("COMMIT;");
    store->exec("PRAGMA wal_checkpoint(TRUNCATE);");
    store.reset();
    // Closing removes the (checkpointed, empty) log and its index; should it not have, nothing is
    // left beside a name that is about to change.
    for (const char* suffix : {"-wal", "-shm"}) fs::remove(temporary.string() + suffix, ec);
    // It holds unprivatised answers: readable by its owner only (SQLite gives the WAL and
    // shared-memory files the same permissions).
    fs::permissions(temporary, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace, ec);
    // Synced before the rename, so that after a crash a file of this name is whole; the rename
    // itself is made durable by the sync of this folder SQLite makes when the journal's log is created.
    if (const std::string failure = sync_to_disk(temporary); !failure.empty())
        throw RunError(fmt::format("journal '{}' cannot be created: writing '{}' to disk failed: {}", file.string(),
                                   temporary.string(), failure));
    fs::rename(temporary, file, ec);
    if (ec) throw ValidationError(fmt::format("journal '{}' cannot be created: {}", file.string(), ec.message()));
    return open(file, kind);
}

std::unique_ptr<JournalStore> JournalStore::open(const fs::path& file, const std::string& kind) {
    std::error_code ec;
    if (!fs::is_regular_file(file, ec))
        throw ValidationError(fmt::format("'{}' is not a file; expected a dpbo {} file", file.string(), kind));
    std::unique_ptr<JournalStore> store(new JournalStore(file, open_database(file, false)));
    std::optional<std::string> format;
    try {
        format = store->find_meta("format");
    } catch (const RunError&) {
        format.reset();
    } catch (const ValidationError&) {
        format.reset();  // not a database, or not one of dpbo's: said below
    }
    if (!format)
        throw ValidationError(fmt::format("'{}' is not a dpbo {} file (no format record)", file.string(), kind));
    const bool earlier = *format == kStudyFormatBefore;
    if (*format != kFormat && !earlier)
        throw ValidationError(
            fmt::format("'{}' is in format '{}'; this dpbo reads '{}'", file.string(), *format, kFormat));
    const std::string stored_kind = store->meta("kind");
    if (stored_kind != kind)
        throw ValidationError(
            fmt::format("'{}' is a dpbo {} file; expected a {} file", file.string(), stored_kind, kind));
    // A study's tables are the same in both formats; a run's batches were one trial per point before.
    if (earlier && kind != "study")
        throw ValidationError(fmt::format(
            "'{}' is a run journal in format '{}', left by an earlier dpbo; this dpbo resumes '{}' only: remove it "
            "(rm '{}'*) to run afresh",
            file.string(), *format, kFormat, file.string()));
    // WAL: readers never block the writer, and a commit is one append (fsync'd at checkpoints),
    // durable against the process being killed.
    store->exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    store->exec(kTrialEventsSchema);
    return store;
}

std::optional<std::string> JournalStore::find_meta(const std::string& key) const {
    Statement s(statements_prepared_, db_, file_, "SELECT value FROM meta WHERE key = ?");
    s.bind(1, key);
    if (!s.step()) return std::nullopt;
    return s.text(0);
}

std::string JournalStore::meta(const std::string& key) const {
    auto value = find_meta(key);
    if (!value) throw ValidationError(fmt::format("'{}' lacks its '{}' record; it is damaged", file_.string(), key));
    return *value;
}

void JournalStore::set_synced(bool synced) { exec(synced ? "PRAGMA synchronous=FULL;" : "PRAGMA synchronous=NORMAL;"); }

void JournalStore::set_meta(const std::string& key, const std::string& value) {
    Statement s(statements_prepared_, db_, file_, "INSERT OR REPLACE INTO meta(key, value) VALUES(?, ?)");
    s.bind(1, key).bind(2, value).run();
}

JournalStore::Transaction::Transaction(JournalStore& store) : store_(store) { store_.exec("BEGIN IMMEDIATE;"); }

JournalStore::Transaction::~Transaction() {
    if (open_) sqlite3_exec(store_.db_, "ROLLBACK;", nullptr, nullptr, nullptr);
}

void JournalStore::Transaction::commit() {
    store_.exec("COMMIT;");
    open_ = false;
    ++store_.commits_;
}

std::size_t JournalStore::count(const char* sql) const {
    Statement s(statements_prepared_, db_, file_, sql);
    s.step();
    return static_cast<std::size_t>(s.integer(0));
}

std::size_t JournalStore::batch_count() const { return count("SELECT COUNT(*) FROM batches"); }

std::optional<StoredBatch> JournalStore::batch(std::size_t index) const {
    Statement head(statements_prepared_, db_, file_, "SELECT per_record, size FROM batches WHERE batch = ?");
    head.bind(1, static_cast<std::int64_t>(index));
    if (!head.step()) return std::nullopt;
    StoredBatch out;
    out.index = index;
    out.per_record = head.integer(0) != 0;
    const auto size = static_cast<std::size_t>(head.integer(1));
    // The first trial of each position holds its point (a failed one's retry repeats it).
    Statement points(statements_prepared_, db_, file_,
                     "SELECT position, point FROM trials WHERE batch = ? ORDER BY id");
    points.bind(1, static_cast<std::int64_t>(index));
    std::vector<bool> seen(size, false);
    while (points.step()) {
        const auto position = static_cast<std::size_t>(points.integer(0));
        if (position >= size || seen[position]) continue;
        const arma::rowvec point = points.blob(1);
        if (out.points.is_empty()) out.points.set_size(size, point.n_elem);
        out.points.row(position) = point;
        seen[position] = true;
    }
    return out;
}

std::vector<StoredBatch> JournalStore::batches() const {
    std::vector<StoredBatch> out;
    Statement heads(statements_prepared_, db_, file_, "SELECT batch, per_record, size FROM batches ORDER BY batch");
    while (heads.step()) {
        StoredBatch batch;
        batch.index = static_cast<std::size_t>(heads.integer(0));
        batch.per_record = heads.integer(1) != 0;
        batch.points.set_size(static_cast<std::size_t>(heads.integer(2)), 0);
        out.push_back(std::move(batch));
    }
    std::vector<std::vector<bool>> seen(out.size());
    for (std::size_t i = 0; i < out.size(); ++i) seen[i].assign(out[i].points.n_rows, false);
    Statement points(statements_prepared_, db_, file_, "SELECT batch, position, point FROM trials ORDER BY id");
    while (points.step()) {
        const auto index = static_cast<std::size_t>(points.integer(0));
        const auto position = static_cast<std::size_t>(points.integer(1));
        // Batches are numbered from 0 without gaps: the row is the index.
        if (index >= out.size() || out[index].index != index || position >= seen[index].size() || seen[index][position])
            continue;
        const arma::rowvec point = points.blob(2);
        StoredBatch& batch = out[index];
        if (batch.points.n_cols != point.n_elem) batch.points.set_size(batch.points.n_rows, point.n_elem);
        batch.points.row(position) = point;
        seen[index][position] = true;
    }
    return out;
}

void JournalStore::add_batch(std::size_t index, const arma::mat& points, bool per_record) {
    Statement head(statements_prepared_, db_, file_, "INSERT INTO batches(batch, per_record, size) VALUES(?, ?, ?)");
    head.bind(1, static_cast<std::int64_t>(index))
        .bind(2, std::int64_t{per_record})
        .bind(3, static_cast<std::int64_t>(points.n_rows))
        .run();
    // One statement for all the batch's trials, bound afresh for each.
    sqlite3_stmt* insert = cached("INSERT INTO trials(batch, position, state, point) VALUES(?, ?, 'waiting', ?)");
    for (std::size_t i = 0; i < points.n_rows; ++i) {
        Statement trial(db_, file_, insert);
        trial.bind(1, static_cast<std::int64_t>(index))
            .bind(2, static_cast<std::int64_t>(i))
            .bind_blob(3, points.row(i))
            .run();
    }
}

void JournalStore::add_evaluated_batch(std::size_t index, const Evaluations& e, bool per_record) {
    Statement row(db_, file_,
                  cached("INSERT INTO batches(batch, per_record, size, points_digest, vals, per_record_vals, "
                         "auxiliary, candidate_rows, evaluated_at) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    row.bind(1, static_cast<std::int64_t>(index))
        .bind(2, std::int64_t{per_record})
        .bind(3, static_cast<std::int64_t>(e.points.n_rows))
        .bind_bytes(4, points_digest(e.points))
        .bind_bytes(5, blob_of(e.values));
    if (per_record && !e.per_record.is_empty())
        row.bind_bytes(6, blob_of(e.per_record));
    else
        row.bind_null(6);
    if (!e.auxiliary.is_empty())
        row.bind_bytes(7, blob_of(e.auxiliary));
    else
        row.bind_null(7);
    if (!e.candidate_rows.is_empty())
        row.bind_bytes(8, blob_of(e.candidate_rows));
    else
        row.bind_null(8);
    row.bind(9, now_seconds()).run();
    for (std::size_t i = 0; i < e.trial_events.size(); ++i) {
        json texts = json::array();
        for (const PrivacyEvent& event : e.trial_events[i]) texts.push_back(event_text(event));
        set_trial_events(index, i, texts.dump());
    }
}

void JournalStore::set_trial_events(std::size_t batch, std::size_t position, const std::string& events_json) {
    Statement row(db_, file_, cached("INSERT OR REPLACE INTO trial_events(batch, position, events) VALUES(?, ?, ?)"));
    row.bind(1, static_cast<std::int64_t>(batch)).bind(2, static_cast<std::int64_t>(position)).bind(3, events_json);
    row.run();
}

std::vector<std::vector<std::string>> JournalStore::trial_events(std::size_t batch, std::size_t size) const {
    Statement s(db_, file_, cached("SELECT position, events FROM trial_events WHERE batch = ? ORDER BY position"));
    s.bind(1, static_cast<std::int64_t>(batch));
    std::vector<std::vector<std::string>> out;
    std::vector<bool> seen(size, false);
    while (s.step()) {
        const auto position = static_cast<std::size_t>(s.integer(0));
        const auto damaged = [&](const std::string& why) {
            return RunError(fmt::format("batch {} of '{}': the trial events of point {} {}; the file is damaged",
                                        batch + 1, file_.string(), position, why));
        };
        if (position >= size) throw damaged(fmt::format("are recorded for a batch of {} points", size));
        if (out.empty()) out.resize(size);
        json texts;
        try {
            texts = json::parse(s.text(1));
        } catch (const json::exception&) {
            throw damaged("are not JSON");
        }
        if (!texts.is_array()) throw damaged("are not a list of event texts");
        for (const json& text : texts) {
            if (!text.is_string()) throw damaged("are not a list of event texts");
            out[position].push_back(text.get<std::string>());
        }
        seen[position] = true;
    }
    if (!out.empty())
        for (std::size_t i = 0; i < size; ++i)
            if (!seen[i])
                throw RunError(
                    fmt::format("batch {} of '{}' records trial events for some points but not point {}; "
                                "the file is damaged",
                                batch + 1, file_.string(), i));
    return out;
}

std::optional<EvaluatedBatch> JournalStore::evaluated_batch(std::size_t index) const {
    Statement s(db_, file_,
                cached("SELECT per_record, size, points_digest, vals, per_record_vals, auxiliary, candidate_rows "
                       "FROM batches WHERE batch = ?"));
    s.bind(1, static_cast<std::int64_t>(index));
    if (!s.step()) return std::nullopt;
    EvaluatedBatch out;
    out.index = index;
    out.per_record = s.integer(0) != 0;
    out.size = static_cast<std::size_t>(s.integer(1));
    const auto damaged = [&](const char* what) {
        return RunError(fmt::format("batch {} of '{}' {}; the file is damaged or not a run's journal", index + 1,
                                    file_.string(), what));
    };
    if (s.is_null(2) || s.is_null(3)) throw damaged("has no recorded values");
    out.points_digest = s.bytes(2);
    // Each matrix is size × columns, column-major: its byte count gives the columns.
    const auto matrix = [&](int column, const char* name) {
        const std::string bytes = s.bytes(column);
        const std::size_t row_bytes = out.size * sizeof(double);
        if (row_bytes == 0 ? !bytes.empty() : bytes.size() % row_bytes != 0)
            throw damaged(fmt::format("holds {} bytes of {} for {} points", bytes.size(), name, out.size).c_str());
        arma::mat m(out.size, row_bytes == 0 ? 0 : bytes.size() / row_bytes);
        if (!m.is_empty()) std::memcpy(m.memptr(), bytes.data(), bytes.size());
        return m;
    };
    out.values = matrix(3, "values");
    if (out.per_record) out.per_record_values = matrix(4, "per-record values");
    out.auxiliary = matrix(5, "auxiliary outputs");
    if (!s.is_null(6)) {
        const std::string bytes = s.bytes(6);
        if (bytes.size() != out.size * sizeof(std::int64_t))
            throw damaged(
                fmt::format("holds {} bytes of candidate rows for {} points", bytes.size(), out.size).c_str());
        std::vector<std::int64_t> wide(out.size);
        if (!wide.empty()) std::memcpy(wide.data(), bytes.data(), bytes.size());
        out.candidate_rows.set_size(out.size);
        for (std::size_t i = 0; i < out.size; ++i) out.candidate_rows(i) = static_cast<arma::uword>(wide[i]);
    }
    out.trial_events = trial_events(index, out.size);
    return out;
}

namespace {

const char* const kTrialColumns =
    "SELECT id, batch, position, state, point, vals, per_record, auxiliary, candidate_row, failure, asked_at, told_at "
    "FROM trials";

StoredTrial read_trial(const Statement& s) {
    StoredTrial t;
    t.id = s.integer(0);
    t.batch = static_cast<std::size_t>(s.integer(1));
    t.position = static_cast<std::size_t>(s.integer(2));
    t.state = state_from(s.text(3));
    t.point = s.blob(4);
    t.values = s.blob(5);
    t.per_record = s.blob(6);
    t.auxiliary = s.blob(7);
    if (!s.is_null(8)) t.candidate_row = static_cast<std::size_t>(s.integer(8));
    t.failure = s.text(9);
    t.asked_at = s.is_null(10) ? 0.0 : s.real(10);
    t.told_at = s.is_null(11) ? 0.0 : s.real(11);
    return t;
}

}  // namespace

std::vector<StoredTrial> JournalStore::trials() const {
    Statement s(statements_prepared_, db_, file_, (std::string(kTrialColumns) + " ORDER BY id").c_str());
    std::vector<StoredTrial> out;
    while (s.step()) out.push_back(read_trial(s));
    return out;
}

std::vector<StoredTrial> JournalStore::trials_of(std::size_t batch) const {
    Statement s(statements_prepared_, db_, file_,
                (std::string(kTrialColumns) + " WHERE batch = ? ORDER BY id").c_str());
    s.bind(1, static_cast<std::int64_t>(batch));
    std::vector<StoredTrial> out;
    while (s.step()) out.push_back(read_trial(s));
    return out;
}

std::optional<StoredTrial> JournalStore::trial(std::int64_t id) const {
    Statement s(statements_prepared_, db_, file_, (std::string(kTrialColumns) + " WHERE id = ?").c_str());
    s.bind(1, id);
    if (!s.step()) return std::nullopt;
    return read_trial(s);
}

void JournalStore::mark_running(std::int64_t id) {
    Statement s(statements_prepared_, db_, file_, "UPDATE trials SET state = 'running', asked_at = ? WHERE id = ?");
    s.bind(1, now_seconds()).bind(2, id).run();
}

void JournalStore::mark_done(std::int64_t id, const arma::rowvec& values, const arma::rowvec& per_record,
                             const arma::rowvec& auxiliary) {
    Statement s(statements_prepared_, db_, file_,
                "UPDATE trials SET state = 'done', vals = ?, per_record = ?, auxiliary = ?, told_at = ? WHERE id = ?");
    s.bind_blob(1, values);
    if (per_record.is_empty())
        s.bind_null(2);
    else
        s.bind_blob(2, per_record);
    if (auxiliary.is_empty())
        s.bind_null(3);
    else
        s.bind_blob(3, auxiliary);
    s.bind(4, now_seconds()).bind(5, id).run();
}

std::int64_t JournalStore::mark_failed(std::int64_t id, const std::string& reason) {
    const std::optional<StoredTrial> failed = trial(id);
    Statement s(statements_prepared_, db_, file_,
                "UPDATE trials SET state = 'failed', failure = ?, told_at = ? WHERE id = ?");
    s.bind(1, reason).bind(2, now_seconds()).bind(3, id).run();
    Statement retry(statements_prepared_, db_, file_,
                    "INSERT INTO trials(batch, position, state, point) VALUES(?, ?, 'waiting', ?)");
    retry.bind(1, static_cast<std::int64_t>(failed->batch)).bind(2, static_cast<std::int64_t>(failed->position));
    retry.bind_blob(3, failed->point).run();
    return sqlite3_last_insert_rowid(db_);
}

std::size_t JournalStore::release_count() const { return count("SELECT COUNT(*) FROM releases"); }

std::optional<RecordedRelease> JournalStore::release(std::size_t entry) const {
    Statement s(statements_prepared_, db_, file_,
                "SELECT event, released, evaluation_only FROM releases WHERE entry = ?");
    s.bind(1, static_cast<std::int64_t>(entry));
    if (!s.step()) return std::nullopt;
    RecordedRelease out;
    out.event = s.text(0);
    out.released = s.blob(1).t();
    for (const json& v : json::parse(s.text(2)))
        out.evaluation_only.push_back(
            {v["name"].get<std::string>(), v["description"].get<std::string>(),
             mat_of_hex(v["bits"].get<std::string>(), v["rows"].get<std::size_t>(), v["cols"].get<std::size_t>())});
    return out;
}

void JournalStore::add_release(std::size_t entry, const RecordedRelease& release) {
    Statement s(statements_prepared_, db_, file_,
                "INSERT INTO releases(entry, event, released, evaluation_only, made_at) VALUES(?, ?, ?, ?, ?)");
    s.bind(1, static_cast<std::int64_t>(entry)).bind(2, release.event).bind_blob(3, release.released.t());
    s.bind(4, values_json(release.evaluation_only).dump()).bind(5, now_seconds()).run();
}

void remove_journal_files(const fs::path& file) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(file.string() + suffix, ec);
}

}  // namespace dpbo
