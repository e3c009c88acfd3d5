// Crash-safe runs: `dpbo run` killed with SIGKILL at random moments and run again resumes from its
// journal. With --seed the result is the uninterrupted run's, every release is made once (the journal
// never holds a release twice nor changes one it holds), a completed batch is never evaluated again,
// the budget is charged for replayed releases as for new ones, and a journal that is not the run's is
// refused with a message naming it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

extern char** environ;

using dpbo::test::TemporaryDirectory;

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

json read_json(const fs::path& file) {
    std::ifstream in(file);
    return json::parse(in);
}

// The job: dp-gibo (one Gaussian release per iteration, per-record losses) over the Python record
// objective, which sleeps per point like an expensive model and logs every request it evaluates.
// Every attempt must run the very same command: the command is part of the job.
std::vector<std::string> job_arguments(const fs::path& out, const fs::path& log, std::size_t iterations,
                                       const std::vector<std::string>& extra = {}) {
    const std::string command = fmt::format(
        "python3 {}/sdk/examples/python-objective/record_objective.py --dim 2 "
        "--seconds-per-point 0.01 --log-points {}",
        DPBO_SOURCE_DIR, log.string());
    std::vector<std::string> arguments = {"run",
                                          "--algorithm",
                                          "dp-gibo",
                                          "--objective",
                                          "command",
                                          "--set",
                                          "objective.command=" + command,
                                          "--set",
                                          fmt::format("algorithm.iterations={}", iterations),
                                          "--seed",
                                          "5",
                                          "--out",
                                          out.string()};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

// What the objective program evaluated: the requests with per-record losses are the run's batches
// (dp-gibo's f(θ_t) for the trace asks without them, outside the evaluator and its journal).
struct EvaluationLog {
    std::size_t batches = 0;
    std::size_t points = 0;
    std::size_t largest_batch = 0;
};

EvaluationLog read_log(const fs::path& log) {
    EvaluationLog out;
    std::ifstream in(log);
    std::string line;
    while (std::getline(in, line)) {
        const json request = json::parse(line);
        if (!request["per_record"].get<bool>()) continue;
        ++out.batches;
        out.points += request["points"].size();
        out.largest_batch = std::max(out.largest_batch, request["points"].size());
    }
    return out;
}

// Orphans of a killed dpbo (its objective program) become this process's children, so that the test
// can see them exit.
void adopt_orphans() { REQUIRE(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0); }

std::vector<pid_t> own_children() {
    std::vector<pid_t> out;
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text;
        std::getline(stat, text);
        const auto close = text.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream fields(text.substr(close + 2));
        char state = 0;
        pid_t parent = 0;
        fields >> state >> parent;
        if (parent == getpid()) out.push_back(static_cast<pid_t>(std::stoi(name)));
    }
    return out;
}

// Reaps every child left (the killed run's objective program, which must end at the EOF of its
// input); fails the test when one is still alive after `seconds`, and kills it.
void reap_children(double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (true) {
        const pid_t reaped = waitpid(-1, nullptr, WNOHANG);
        if (reaped > 0) continue;
        if (reaped < 0 && errno == ECHILD) return;
        if (Clock::now() > deadline) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const std::vector<pid_t> lingering = own_children();
    FAIL_CHECK(fmt::format("{} process(es) of a killed run still alive after {} s", lingering.size(), seconds));
    for (pid_t pid : lingering) kill(pid, SIGKILL);
    while (waitpid(-1, nullptr, 0) > 0) {
    }
}

// The built dpbo, started without waiting for it; its output goes to files.
class Attempt {
public:
    Attempt(const std::vector<std::string>& arguments, const fs::path& output_prefix)
        : out_(output_prefix.string() + ".out"), err_(output_prefix.string() + ".err") {
        std::vector<std::string> env_strings;
        for (char** e = environ; *e != nullptr; ++e)
            if (std::string(*e).rfind("DPBO_PLUGIN_PATH=", 0) != 0) env_strings.emplace_back(*e);
        // Only the plugins of the build tree, as in run_dpbo.
        env_strings.emplace_back("DPBO_PLUGIN_PATH=");
        std::vector<char*> envp;
        for (auto& e : env_strings) envp.push_back(e.data());
        envp.push_back(nullptr);
        const std::string program = DPBO_EXECUTABLE;
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);

        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int spawned = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        REQUIRE(spawned == 0);
        started_ = Clock::now();
    }
    ~Attempt() {
        if (running()) {
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
    }
    Attempt(const Attempt&) = delete;
    Attempt& operator=(const Attempt&) = delete;

    double seconds() const { return std::chrono::duration<double>(Clock::now() - started_).count(); }
    bool running() {
        if (status_) return false;
        int status = 0;
        if (waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
        return !status_;
    }
    // SIGKILL now; true when it was still running (killed), false when it had ended by itself.
    bool kill_now() {
        if (!running()) return false;
        kill(pid_, SIGKILL);
        int status = 0;
        waitpid(pid_, &status, 0);
        status_ = status;
        return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
    }
    // Its exit code once it ended by itself (fails the test after `seconds`).
    int wait(double seconds = 50.0) {
        while (running()) {
            if (this->seconds() > seconds) {
                kill_now();
                FAIL("dpbo did not finish within ", seconds, " s");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return WIFEXITED(*status_) ? WEXITSTATUS(*status_) : 128 + WTERMSIG(*status_);
    }
    std::string out() const { return read_text(out_); }
    std::string err() const { return read_text(err_); }

private:
    std::string out_;
    std::string err_;
    pid_t pid_ = -1;
    Clock::time_point started_;
    std::optional<int> status_;
};

// A SQLite connection, closed when done.
class Database {
public:
    Database(const fs::path& file, int flags) {
        if (sqlite3_open_v2(file.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
            sqlite3_close(db_);
            db_ = nullptr;
        }
        if (db_ != nullptr) sqlite3_busy_timeout(db_, 1000);
    }
    ~Database() { sqlite3_close(db_); }
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;
    bool is_open() const { return db_ != nullptr; }

    // Each row's columns as their bytes (text or blob), or nothing when the query fails.
    std::optional<std::vector<std::vector<std::string>>> rows(const std::string& sql) const {
        sqlite3_stmt* statement = nullptr;
        if (db_ == nullptr || sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK)
            return std::nullopt;
        std::vector<std::vector<std::string>> out;
        int rc = SQLITE_OK;
        while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
            std::vector<std::string> row;
            for (int c = 0; c < sqlite3_column_count(statement); ++c) {
                const auto* bytes = static_cast<const char*>(sqlite3_column_blob(statement, c));
                const auto size = static_cast<std::size_t>(sqlite3_column_bytes(statement, c));
                row.emplace_back(bytes == nullptr ? "" : std::string(bytes, size));
            }
            out.push_back(std::move(row));
        }
        sqlite3_finalize(statement);
        if (rc != SQLITE_DONE) return std::nullopt;
        return out;
    }
    void exec(const std::string& sql) const {
        char* message = nullptr;
        const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message);
        const std::string why = message ? message : "";
        sqlite3_free(message);
        REQUIRE_MESSAGE(rc == SQLITE_OK, sql << ": " << why);
    }

private:
    sqlite3* db_ = nullptr;
};

// How far a running dpbo's journal is: its batch and release counts, read while it writes (WAL
// readers do not block the writer). Nothing while there is no readable journal.
std::optional<std::pair<std::size_t, std::size_t>> progress_of(const fs::path& journal) {
    std::error_code ec;
    if (!fs::exists(journal, ec)) return std::nullopt;
    Database db(journal, SQLITE_OPEN_READONLY);
    const auto counts = db.rows("SELECT (SELECT COUNT(*) FROM batches), (SELECT COUNT(*) FROM releases)");
    if (!counts || counts->size() != 1) return std::nullopt;
    return std::pair{std::stoul((*counts)[0][0]), std::stoul((*counts)[0][1])};
}

// Waits until `reached(batches, releases)` holds for the journal, or the attempt ends (false).
bool wait_for_journal(Attempt& attempt, const fs::path& journal,
                      const std::function<bool(std::size_t, std::size_t)>& reached) {
    while (attempt.running()) {
        if (const auto progress = progress_of(journal); progress && reached(progress->first, progress->second))
            return true;
        if (attempt.seconds() > 50.0) FAIL("the journal did not reach its mark within 50 s");
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    return false;
}

struct Release {
    std::string event;
    std::string bits;
};

// What a killed run left in its journal, read from a copy so that the run's own files (the WAL as the
// kill left it) are what the next attempt resumes from.
struct JournalContents {
    std::size_t batches = 0;
    std::vector<Release> releases;
};

JournalContents read_journal(const fs::path& journal, const fs::path& scratch) {
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    const fs::path copy = scratch / "journal.sqlite";
    fs::copy_file(journal, copy);
    std::error_code ec;
    if (fs::exists(journal.string() + "-wal", ec)) fs::copy_file(journal.string() + "-wal", copy.string() + "-wal");
    Database db(copy, SQLITE_OPEN_READWRITE);
    REQUIRE(db.is_open());
    JournalContents out;

    // Batches 0..b−1, each complete: a batch is recorded with its values (one per point: dp-gibo's
    // objective has one output) and the digest of its points, in one row of one transaction.
    const auto batches =
        db.rows("SELECT batch, size * 8 = length(vals), length(points_digest) FROM batches ORDER BY batch");
    REQUIRE(batches);
    for (std::size_t i = 0; i < batches->size(); ++i) {
        CHECK((*batches)[i][0] == std::to_string(i));
        CHECK((*batches)[i][1] == "1");
        CHECK((*batches)[i][2] == "32");
    }
    out.batches = batches->size();
    // A run's batch is no study's trials.
    const auto trials = db.rows("SELECT COUNT(*) FROM trials");
    REQUIRE(trials);
    CHECK((*trials)[0][0] == "0");

    // Releases 0..k−1, each entry once.
    const auto releases = db.rows("SELECT entry, event, released FROM releases ORDER BY entry");
    REQUIRE(releases);
    for (std::size_t i = 0; i < releases->size(); ++i) {
        CHECK((*releases)[i][0] == std::to_string(i));
        out.releases.push_back({(*releases)[i][1], (*releases)[i][2]});
    }
    const auto distinct = db.rows("SELECT COUNT(DISTINCT entry), COUNT(DISTINCT event) FROM releases");
    REQUIRE(distinct);
    CHECK((*distinct)[0][0] == std::to_string(releases->size()));
    CHECK((*distinct)[0][1] == std::to_string(releases->size()));
    return out;
}

std::vector<double> doubles_of(const std::string& bits) {
    std::vector<double> out(bits.size() / sizeof(double));
    std::memcpy(out.data(), bits.data(), out.size() * sizeof(double));
    return out;
}

// A CSV's header and rows, with the columns whose names end in "_seconds" (timings: they differ
// between any two runs) left out.
struct Csv {
    std::vector<std::string> header;
    std::vector<std::string> timing_columns;
    std::vector<std::vector<std::string>> rows;
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ',')) out.push_back(cell);
    return out;
}

Csv read_trace_without_timings(const fs::path& file) {
    std::ifstream in(file);
    std::string line;
    REQUIRE(std::getline(in, line));
    const std::vector<std::string> names = split(line);
    std::vector<bool> keep;
    Csv out;
    for (const std::string& name : names) {
        const bool timing = name.size() > 8 && name.compare(name.size() - 8, 8, "_seconds") == 0;
        keep.push_back(!timing);
        (timing ? out.timing_columns : out.header).push_back(name);
    }
    while (std::getline(in, line)) {
        const std::vector<std::string> cells = split(line);
        REQUIRE(cells.size() == names.size());
        std::vector<std::string> row;
        for (std::size_t c = 0; c < cells.size(); ++c)
            if (keep[c]) row.push_back(cells[c]);
        out.rows.push_back(std::move(row));
    }
    return out;
}

json without_timing(json result) {
    result.erase("timing");
    return result;
}

// The repeat's outputs equal the uninterrupted run's, timings aside.
void check_same_outputs(const fs::path& uninterrupted, const fs::path& resumed) {
    CAPTURE(resumed.string());
    const json expected = read_json(uninterrupted / "result.json");
    const json got = read_json(resumed / "result.json");
    CHECK(expected.contains("timing") == got.contains("timing"));
    CHECK(without_timing(got) == without_timing(expected));
    const Csv expected_trace = read_trace_without_timings(uninterrupted / "trace.csv");
    const Csv got_trace = read_trace_without_timings(resumed / "trace.csv");
    // dp-gibo's timings of the algorithm and of the evaluations per iteration, and nothing else.
    CHECK(expected_trace.timing_columns == std::vector<std::string>{"algorithm_cpu_seconds", "evaluation_cpu_seconds"});
    CHECK(got_trace.header == expected_trace.header);
    CHECK(got_trace.rows == expected_trace.rows);
}

void check_no_journal(const fs::path& dir) {
    for (const char* suffix : {"", "-wal", "-shm", "-journal"}) {
        CAPTURE(suffix);
        CHECK_FALSE(fs::exists(dir / (std::string("journal.sqlite") + suffix)));
    }
}

std::size_t trace_column(const Csv& trace, const std::string& name) {
    const auto found = std::find(trace.header.begin(), trace.header.end(), name);
    REQUIRE(found != trace.header.end());
    return static_cast<std::size_t>(found - trace.header.begin());
}

}  // namespace

TEST_CASE("cli resume: a seeded run killed at 20 random moments and resumed gives the uninterrupted result") {
    adopt_orphans();
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    constexpr std::size_t kIterations = 25;
    constexpr int kKills = 20;

    // The uninterrupted run, timed from its start to its first recorded batch (what a kill during
    // start-up, plugin loading and replay has to land in).
    const fs::path a = root / "a";
    double first_batch_seconds = 0.0;
    {
        Attempt run(job_arguments(a, log, kIterations), root / "a");
        REQUIRE(
            wait_for_journal(run, a / "journal.sqlite", [](std::size_t batches, std::size_t) { return batches >= 1; }));
        first_batch_seconds = run.seconds();
        CAPTURE(run.err());
        REQUIRE(run.wait() == 0);
        CHECK_FALSE(contains(run.out(), "resumed"));
    }
    check_no_journal(a);
    const EvaluationLog uninterrupted = read_log(log);
    const Csv expected_trace = read_trace_without_timings(a / "trace.csv");
    REQUIRE(expected_trace.rows.size() == kIterations);
    REQUIRE(uninterrupted.batches >= kIterations);
    const std::size_t total_batches = uninterrupted.batches;
    MESSAGE("uninterrupted: ", total_batches, " batches, ", uninterrupted.points, " points; first batch after ",
            first_batch_seconds, " s");

    // The kill moments, from a fixed seed, spread over the run's progress: kill k lands a random
    // 0–25 ms (less than one batch's evaluation) after the journal reaches batch b_k, b_k uniform over
    // the run's batches but the last two; when the journal is already there, at a random moment of
    // the attempt's start-up and replay instead.
    std::mt19937_64 generator(20261125);
    std::uniform_int_distribution<std::size_t> batch_mark(0, total_batches - 3);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::vector<std::size_t> marks(kKills);
    for (auto& mark : marks) mark = batch_mark(generator);
    std::sort(marks.begin(), marks.end());

    const fs::path b = root / "b";
    const fs::path journal = b / "journal.sqlite";
    std::vector<Release> releases_seen;
    std::size_t batches_seen = 0;
    int kills_in_start_up = 0;
    for (int k = 0; k < kKills; ++k) {
        CAPTURE(k);
        const double delay = unit(generator);
        Attempt attempt(job_arguments(b, log, kIterations), root / fmt::format("b-{}", k));
        if (batches_seen >= marks[k]) {
            ++kills_in_start_up;
            std::this_thread::sleep_for(std::chrono::duration<double>(delay * first_batch_seconds));
        } else {
            const std::size_t mark = marks[k];
            REQUIRE(
                wait_for_journal(attempt, journal, [&](std::size_t batches, std::size_t) { return batches >= mark; }));
            std::this_thread::sleep_for(std::chrono::duration<double>(delay * 0.025));
        }
        CAPTURE(attempt.err());
        REQUIRE_MESSAGE(attempt.kill_now(), "the run ended before kill ", k + 1);
        // The objective program reads EOF once dpbo is gone and ends; it may finish the batch it has.
        reap_children(10.0);

        if (!fs::exists(journal)) {
            // Killed before the journal was created: nothing was evaluated nor released yet.
            CHECK(batches_seen == 0);
            continue;
        }
        const JournalContents contents = read_journal(journal, root / "scratch");
        CHECK(contents.batches >= batches_seen);
        REQUIRE(contents.releases.size() >= releases_seen.size());
        // A release, once in the journal, is never drawn again: it keeps its event and its bits.
        for (std::size_t i = 0; i < releases_seen.size(); ++i) {
            CAPTURE(i);
            CHECK(contents.releases[i].event == releases_seen[i].event);
            CHECK(contents.releases[i].bits == releases_seen[i].bits);
        }
        CHECK(contents.releases.size() <= kIterations);
        batches_seen = contents.batches;
        releases_seen = contents.releases;
    }
    MESSAGE(kKills, " kills, ", kills_in_start_up, " of them in start-up or replay; the journal then held ",
            batches_seen, " batches and ", releases_seen.size(), " releases");
    CHECK(batches_seen > total_batches / 2);

    Attempt last(job_arguments(b, log, kIterations), root / "b-last");
    CAPTURE(last.err());
    REQUIRE(last.wait() == 0);
    CHECK(contains(last.out(), fmt::format("from its journal: {} batch(es) and {} release(s) replayed, not made again",
                                           batches_seen, releases_seen.size())));
    check_no_journal(b);
    check_same_outputs(a, b);
    reap_children(10.0);

    // Each release once: the statement composes as many releases as the uninterrupted run's ...
    const json result = read_json(b / "result.json");
    const json& claim = result["privacy"]["hypothetical"];
    CHECK(claim["mu"].get<double>() == 1.0);
    CHECK(contains(claim["mechanism"].get<std::string>(), fmt::format("{} releases of", kIterations)));
    CHECK(contains(claim["mechanism"].get<std::string>(), fmt::format("composition of {} releases", kIterations)));
    // ... and the releases the journal held are those the result was computed from.
    const Csv trace = read_trace_without_timings(b / "trace.csv");
    const std::size_t norm_column = trace_column(trace, "released_gradient_norm");
    for (std::size_t i = 0; i < releases_seen.size(); ++i) {
        CAPTURE(i);
        CHECK(contains(releases_seen[i].event, fmt::format("gradient at step {}", i + 1)));
        double squares = 0.0;
        for (double v : doubles_of(releases_seen[i].bits)) squares += v * v;
        CHECK(std::sqrt(squares) == doctest::Approx(std::stod(trace.rows[i][norm_column])).epsilon(1e-14));
    }

    // Completed evaluations are not repeated: at most the batch in flight is lost to each kill.
    const EvaluationLog all = read_log(log);
    const std::size_t batches = all.batches - uninterrupted.batches;
    const std::size_t points = all.points - uninterrupted.points;
    MESSAGE("the interrupted run evaluated ", batches, " batches (", points, " points) in ", kKills + 1,
            " attempts; the uninterrupted one ", uninterrupted.batches, " (", uninterrupted.points, ")");
    CHECK(batches >= uninterrupted.batches);
    CHECK(batches <= uninterrupted.batches + kKills);
    CHECK(points <= uninterrupted.points + kKills * uninterrupted.largest_batch);
}

TEST_CASE("cli resume: a run of two repeats killed in each repeat resumes the one in progress") {
    adopt_orphans();
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    const std::vector<std::string> repeats = {"--repeat", "2"};
    const fs::path a = root / "a";
    {
        Attempt run(job_arguments(a, log, 10, repeats), root / "a");
        CAPTURE(run.err());
        REQUIRE(run.wait() == 0);
    }
    const std::size_t uninterrupted = read_log(log).batches;

    const fs::path b = root / "b";
    std::size_t first_kill_batches = 0;
    {
        Attempt attempt(job_arguments(b, log, 10, repeats), root / "b-1");
        REQUIRE(wait_for_journal(attempt, b / "repeat-001" / "journal.sqlite",
                                 [](std::size_t batches, std::size_t) { return batches >= 4; }));
        REQUIRE(attempt.kill_now());
        reap_children(10.0);
        first_kill_batches = read_journal(b / "repeat-001" / "journal.sqlite", root / "scratch").batches;
        CHECK_FALSE(fs::exists(b / "repeat-001" / "result.json"));
        CHECK_FALSE(fs::exists(b / "repeat-002"));
    }
    std::size_t second_kill_batches = 0;
    std::size_t second_kill_releases = 0;
    {
        // Repeat 1 resumes and completes; the kill lands in repeat 2.
        Attempt attempt(job_arguments(b, log, 10, repeats), root / "b-2");
        REQUIRE(wait_for_journal(attempt, b / "repeat-002" / "journal.sqlite",
                                 [](std::size_t batches, std::size_t) { return batches >= 3; }));
        REQUIRE(attempt.kill_now());
        reap_children(10.0);
        CHECK(fs::exists(b / "repeat-001" / "result.json"));
        check_no_journal(b / "repeat-001");
        const JournalContents contents = read_journal(b / "repeat-002" / "journal.sqlite", root / "scratch");
        second_kill_batches = contents.batches;
        second_kill_releases = contents.releases.size();
        CHECK_FALSE(fs::exists(b / "repeat-002" / "result.json"));
    }
    Attempt last(job_arguments(b, log, 10, repeats), root / "b-last");
    CAPTURE(last.err());
    REQUIRE(last.wait() == 0);
    CHECK(contains(last.out(), "kept from an earlier run"));
    CHECK(contains(last.out(), fmt::format("from its journal: {} batch(es) and {} release(s) replayed",
                                           second_kill_batches, second_kill_releases)));
    for (const char* repeat : {"repeat-001", "repeat-002"}) {
        check_same_outputs(a / repeat, b / repeat);
        check_no_journal(b / repeat);
    }
    reap_children(10.0);
    const std::size_t batches = read_log(log).batches - uninterrupted;
    MESSAGE("killed after ", first_kill_batches, " and ", second_kill_batches, " batches: ", batches,
            " batches evaluated, ", uninterrupted, " uninterrupted");
    CHECK(batches <= uninterrupted + 2);
}

TEST_CASE("cli resume: replayed releases are charged to the budget, a refused run keeps its result") {
    adopt_orphans();
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";

    SUBCASE("a budget that admits the whole run: the resumed run spends what the uninterrupted one does") {
        // Ten releases of 1/√10-GDP compose to exactly 1-GDP.
        const std::vector<std::string> budget = {"--budget", "mu=1"};
        const fs::path a = root / "a";
        Attempt uninterrupted(job_arguments(a, log, 10, budget), root / "a");
        CAPTURE(uninterrupted.err());
        REQUIRE(uninterrupted.wait() == 0);

        const fs::path b = root / "b";
        for (std::size_t mark : {2U, 5U, 8U}) {
            CAPTURE(mark);
            Attempt attempt(job_arguments(b, log, 10, budget), root / fmt::format("b-{}", mark));
            REQUIRE(wait_for_journal(attempt, b / "journal.sqlite",
                                     [&](std::size_t, std::size_t releases) { return releases >= mark; }));
            REQUIRE(attempt.kill_now());
            reap_children(10.0);
            CHECK(read_journal(b / "journal.sqlite", root / "scratch").releases.size() >= mark);
        }
        Attempt last(job_arguments(b, log, 10, budget), root / "b-last");
        CAPTURE(last.err());
        REQUIRE(last.wait() == 0);
        CHECK(contains(last.out(), "resumed"));
        check_same_outputs(a, b);
        const json spent = read_json(b / "result.json")["privacy"]["hypothetical"];
        CHECK(spent["mu"] == read_json(a / "result.json")["privacy"]["hypothetical"]["mu"]);
        CHECK(spent["mu"].get<double>() == doctest::Approx(1.0).epsilon(1e-12));
    }

    SUBCASE("a budget refused mid-run: the resumed run is refused at the same release") {
        // 0.2-GDP per release: six compose to 0.49-GDP, the seventh would bring 0.53 > 0.5.
        const std::vector<std::string> budget = {"--budget", "mu=0.5"};
        const fs::path a = root / "a";
        Attempt uninterrupted(job_arguments(a, log, 25, budget), root / "a");
        REQUIRE(uninterrupted.wait() == 1);
        CHECK(contains(uninterrupted.err(), "release refused: 'gradient at step 7'"));
        check_no_journal(a);
        const json expected = read_json(a / "result.json");
        REQUIRE(expected["status"] == "refused");
        REQUIRE(expected["budget"]["releases_made"] == 6);

        const fs::path b = root / "b";
        {
            Attempt attempt(job_arguments(b, log, 25, budget), root / "b-1");
            REQUIRE(wait_for_journal(attempt, b / "journal.sqlite",
                                     [](std::size_t, std::size_t releases) { return releases >= 4; }));
            REQUIRE(attempt.kill_now());
            reap_children(10.0);
            CHECK(read_journal(b / "journal.sqlite", root / "scratch").releases.size() <= 6);
        }
        Attempt resumed(job_arguments(b, log, 25, budget), root / "b-2");
        REQUIRE(resumed.wait() == 1);
        CHECK(contains(resumed.err(), "release refused: 'gradient at step 7'"));
        CHECK(contains(resumed.err(), "6 earlier release(s) stand"));
        check_no_journal(b);
        CHECK(without_timing(read_json(b / "result.json")) == without_timing(expected));
        reap_children(10.0);

        // Run again: the refused result is kept, nothing is evaluated or released again.
        const std::string refused = read_text(b / "result.json");
        const std::size_t evaluated = read_log(log).batches;
        Attempt again(job_arguments(b, log, 25, budget), root / "b-3");
        CAPTURE(again.err());
        CHECK(again.wait() == 0);
        CHECK(contains(again.out(), "kept from an earlier run"));
        CHECK(read_text(b / "result.json") == refused);
        check_no_journal(b);
        reap_children(10.0);
        CHECK(read_log(log).batches == evaluated);
    }
}

TEST_CASE("cli resume: a journal that is not the run's is refused naming it") {
    adopt_orphans();
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    // A journal with a few batches and releases, left by a killed run.
    const fs::path original = root / "killed";
    {
        Attempt attempt(job_arguments(original, log, 25), root / "killed");
        REQUIRE(wait_for_journal(attempt, original / "journal.sqlite", [](std::size_t batches, std::size_t releases) {
            return batches >= 3 && releases >= 2;
        }));
        REQUIRE(attempt.kill_now());
        reap_children(10.0);
    }
    struct Refusal {
        int code = 0;
        std::string err;
        std::string journal;
    };
    // Resumes a copy of the killed run's folder after `edit` returned the SQL that changes its journal.
    int n = 0;
    const auto resume_after = [&](const std::function<std::string(const Database&)>& edit) {
        const fs::path out = root / fmt::format("edited-{}", ++n);
        fs::copy(original, out, fs::copy_options::recursive);
        {
            Database db(out / "journal.sqlite", SQLITE_OPEN_READWRITE);
            REQUIRE(db.is_open());
            db.exec(edit(db));
        }
        Attempt attempt(job_arguments(out, log, 25), root / fmt::format("edited-{}", n));
        Refusal refusal{attempt.wait(), attempt.err(), (out / "journal.sqlite").string()};
        reap_children(10.0);
        // The journal stays for its owner to judge; the run never overwrites it.
        CHECK(fs::exists(out / "journal.sqlite"));
        CHECK_FALSE(fs::exists(out / "result.json"));
        return refusal;
    };

    SUBCASE("recorded points whose digest differs in one bit: the run diverged from its journal") {
        const Refusal refused = resume_after([](const Database& db) {
            const std::string where = "WHERE batch = 1";
            const auto digest = db.rows("SELECT points_digest FROM batches " + where);
            REQUIRE(digest);
            REQUIRE(digest->size() == 1);
            // The lowest bit of the digest's first byte flipped: the points the run asks for now
            // differ from those the journal recorded.
            std::string bits = (*digest)[0][0];
            REQUIRE(bits.size() == 32);
            bits[0] = static_cast<char>(bits[0] ^ 1);
            std::string hex;
            for (unsigned char c : bits) hex += fmt::format("{:02x}", c);
            return fmt::format("UPDATE batches SET points_digest = x'{}' {}", hex, where);
        });
        CAPTURE(refused.err);
        CHECK(refused.code == 1);
        CHECK(contains(refused.err,
                       "the run asks to evaluate batch 2 at 3 point(s) other than the 3 its journal "
                       "recorded"));
        CHECK(contains(refused.err, fmt::format("'{}' belongs to another run", refused.journal)));
        CHECK(contains(refused.err, "remove it to start afresh"));
        // Running the same command again would fail the same way: no advice to.
        CHECK_FALSE(contains(refused.err, "run the same command again"));
    }
    SUBCASE("a recorded release of another event") {
        const Refusal refused = resume_after([](const Database&) {
            return std::string("UPDATE releases SET event = replace(event, 'mu = 0.2', 'mu = 0.3') WHERE entry = 1");
        });
        CAPTURE(refused.err);
        CHECK(refused.code == 1);
        CHECK(contains(refused.err,
                       "the run's release 2 is gdp (mu = 0.2): gradient at step 2, but its journal "
                       "recorded gdp (mu = 0.3): gradient at step 2"));
        CHECK(contains(refused.err, fmt::format("'{}' belongs to another run", refused.journal)));
        CHECK_FALSE(contains(refused.err, "run the same command again"));
    }
    SUBCASE("a journal of another job") {
        const Refusal refused = resume_after([](const Database&) {
            return std::string("UPDATE meta SET value = replace(value, '\"seed\":5', '\"seed\":6') WHERE key = 'job'");
        });
        CAPTURE(refused.err);
        CHECK(refused.code == 2);
        CHECK(contains(refused.err, fmt::format("'{}' is the journal of another job or repeat; remove it to run this "
                                                "one",
                                                refused.journal)));
    }
    SUBCASE("a journal of another format") {
        const Refusal refused = resume_after([](const Database&) {
            return std::string("UPDATE meta SET value = 'dpbo-journal/0' WHERE key = 'format'");
        });
        CAPTURE(refused.err);
        CHECK(refused.code == 2);
        CHECK(contains(refused.err, fmt::format("'{}' is in format 'dpbo-journal/0'; this dpbo reads 'dpbo-journal/2'",
                                                refused.journal)));
    }
    SUBCASE("a damaged file that is not SQLite") {
        const fs::path out = root / "damaged";
        fs::copy(original, out, fs::copy_options::recursive);
        for (const char* suffix : {"-wal", "-shm"}) fs::remove(out / (std::string("journal.sqlite") + suffix));
        std::ofstream(out / "journal.sqlite") << "this is not a database, but long enough to look like a header of one";
        Attempt attempt(job_arguments(out, log, 25), root / "damaged");
        const int code = attempt.wait();
        reap_children(10.0);
        CAPTURE(attempt.err());
        CHECK(code == 2);
        CHECK(contains(attempt.err(), fmt::format("'{}' is not a dpbo run file", (out / "journal.sqlite").string())));
        CHECK_FALSE(fs::exists(out / "result.json"));
    }
}

namespace {

// A lifetime ledger's charges of one run, by charge number, read from a copy (the killed run's WAL
// as it left it stays the ledger's own).
std::vector<std::string> ledger_charges(const fs::path& ledger, const std::string& run, const fs::path& scratch) {
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    const fs::path copy = scratch / "ledger.sqlite";
    fs::copy_file(ledger, copy);
    std::error_code ec;
    if (fs::exists(ledger.string() + "-wal", ec)) fs::copy_file(ledger.string() + "-wal", copy.string() + "-wal");
    Database db(copy, SQLITE_OPEN_READWRITE);
    REQUIRE(db.is_open());
    const auto rows = db.rows("SELECT charge, event FROM entries WHERE run = '" + run + "' ORDER BY charge");
    REQUIRE(rows);
    std::vector<std::string> out;
    for (const auto& row : *rows) {
        CHECK(row[0] == std::to_string(out.size()));  // numbered from 0 without a gap or a repeat
        out.push_back(row[1]);
    }
    return out;
}

// The repeat's token in the ledger, as its journal keeps it; empty before it is written.
std::string journal_ledger_run(const fs::path& journal) {
    std::error_code ec;
    if (!fs::exists(journal, ec)) return {};
    Database db(journal, SQLITE_OPEN_READONLY);
    const auto rows = db.rows("SELECT value FROM meta WHERE key = 'ledger_run'");
    return rows && rows->size() == 1 ? (*rows)[0][0] : std::string();
}

}  // namespace

TEST_CASE("cli resume: a run on a lifetime ledger killed at 12 random moments is charged each release once") {
    adopt_orphans();
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    const fs::path ledger = root / "data.ledger";
    constexpr std::size_t kIterations = 15;
    constexpr int kKills = 12;
    {
        const auto created = dpbo::test::run_dpbo({"ledger", "create", ledger.string(), "--budget", "mu=10"});
        REQUIRE(created.exit_code == 0);
    }
    const std::vector<std::string> on_ledger = {"--ledger", ledger.string()};

    // The uninterrupted run on the same ledger: what one run charges.
    const fs::path a = root / "a";
    {
        Attempt run(job_arguments(a, log, kIterations, on_ledger), root / "a");
        CAPTURE(run.err());
        REQUIRE(run.wait() == 0);
    }
    const std::string run_a = read_json(a / "result.json")["lifetime_ledger"]["run"];
    const std::vector<std::string> expected = ledger_charges(ledger, run_a, root / "scratch");
    REQUIRE(expected.size() == kIterations);

    // Kills land 0–25 ms after the journal holds release m_k, m_k drawn from a fixed seed.
    std::mt19937_64 generator(20261128);
    std::uniform_int_distribution<std::size_t> release_mark(0, kIterations - 2);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const fs::path b = root / "b";
    const fs::path journal = b / "journal.sqlite";
    std::string run_b;
    std::size_t releases_seen = 0;
    for (int k = 0; k < kKills; ++k) {
        CAPTURE(k);
        const std::size_t mark = release_mark(generator);
        const double delay = unit(generator);
        Attempt attempt(job_arguments(b, log, kIterations, on_ledger), root / fmt::format("b-{}", k));
        if (mark > releases_seen)
            REQUIRE(wait_for_journal(attempt, journal,
                                     [&](std::size_t, std::size_t releases) { return releases >= mark; }));
        std::this_thread::sleep_for(std::chrono::duration<double>(delay * 0.025));
        CAPTURE(attempt.err());
        if (!attempt.kill_now()) break;  // it finished first: the check below covers it
        reap_children(10.0);
        if (!fs::exists(journal)) continue;
        const std::string token = journal_ledger_run(journal);
        if (token.empty()) continue;
        if (run_b.empty()) run_b = token;
        CHECK(token == run_b);  // the resumed repeat charges under the token its first attempt made
        const JournalContents contents = read_journal(journal, root / "scratch-journal");
        const std::vector<std::string> charged = ledger_charges(ledger, run_b, root / "scratch");
        // Every release journaled was charged first, with the same event; at most one charge (the
        // release the kill interrupted, charged but not yet drawn or journaled) is ahead of it.
        CHECK(charged.size() >= contents.releases.size());
        CHECK(charged.size() <= contents.releases.size() + 1);
        for (std::size_t i = 0; i < contents.releases.size() && i < charged.size(); ++i) {
            CAPTURE(i);
            CHECK(charged[i] == contents.releases[i].event);
        }
        releases_seen = contents.releases.size();
    }
    Attempt last(job_arguments(b, log, kIterations, on_ledger), root / "b-last");
    CAPTURE(last.err());
    REQUIRE(last.wait() == 0);
    reap_children(10.0);
    const std::string final_run = read_json(b / "result.json")["lifetime_ledger"]["run"];
    if (!run_b.empty()) CHECK(final_run == run_b);
    // Exactly the uninterrupted run's charges: none lost, none twice.
    CHECK(ledger_charges(ledger, final_run, root / "scratch") == expected);
    const auto verified = dpbo::test::run_dpbo({"ledger", "verify", ledger.string(), "--json"});
    CAPTURE(verified.err);
    REQUIRE(verified.exit_code == 0);
    CHECK(json::parse(verified.out)["entries"] == 2 * kIterations);
    MESSAGE(kKills, " kills; the journal last held ", releases_seen, " releases");

    // The journal of a run started on this ledger refuses to resume on another one, or on none.
    const fs::path c = root / "c";
    {
        Attempt attempt(job_arguments(c, log, kIterations, on_ledger), root / "c-1");
        REQUIRE(wait_for_journal(attempt, c / "journal.sqlite", [](std::size_t, std::size_t r) { return r >= 1; }));
        REQUIRE(attempt.kill_now());
        reap_children(10.0);
    }
    const fs::path other = root / "other.ledger";
    REQUIRE(dpbo::test::run_dpbo({"ledger", "create", other.string(), "--budget", "mu=10"}).exit_code == 0);
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"--ledger", other.string()}, std::vector<std::string>{}}) {
        Attempt attempt(job_arguments(c, log, kIterations, extra), root / "c-2");
        CAPTURE(attempt.err());
        CHECK(attempt.wait() == 2);
        CHECK(contains(attempt.err(), "with --ledger"));
        CHECK(contains(attempt.err(), ledger.filename().string()));
    }
    reap_children(10.0);
}
