// Issue 29's battery, the journal and grid cases, end to end: a grid of millions of points runs in
// the memory of one batch (the grid is never held whole, the journal keeps a row per batch), a
// search whose memory would outgrow the machine is refused by its keys before it starts, a grid run
// killed in the middle of a batch resumes to the uninterrupted result with at most that batch
// evaluated again, and a run without --out names the folder its journal is in and how to resume it.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;
using dpbo::test::TemporaryDirectory;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_text(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

json without_timing(const fs::path& result) {
    std::ifstream in(result);
    json out = json::parse(in);
    out.erase("timing");
    return out;
}

// The built dpbo started in `cwd` without waiting for it, its output in files beside `prefix`; its
// peak resident memory comes from the kernel's accounting when it is reaped.
class Dpbo {
public:
    Dpbo(const std::vector<std::string>& arguments, const fs::path& prefix, const fs::path& cwd)
        : out_(prefix.string() + ".out"), err_(prefix.string() + ".err") {
        std::vector<std::string> env_strings;
        for (char** e = environ; *e != nullptr; ++e)
            if (std::string(*e).rfind("DPBO_PLUGIN_PATH=", 0) != 0) env_strings.emplace_back(*e);
        env_strings.emplace_back("DPBO_PLUGIN_PATH=");  // the build tree's plugins only
        std::vector<char*> envp;
        for (auto& e : env_strings) envp.push_back(e.data());
        envp.push_back(nullptr);
        const std::string program = DPBO_EXECUTABLE;
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addchdir_np(&actions, cwd.c_str());
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        posix_spawn_file_actions_addopen(&actions, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int spawned = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        REQUIRE(spawned == 0);
        started_ = Clock::now();
    }
    ~Dpbo() {
        if (running()) kill_now();
    }
    Dpbo(const Dpbo&) = delete;
    Dpbo& operator=(const Dpbo&) = delete;

    bool running() {
        if (status_) return false;
        reap(WNOHANG);
        return !status_;
    }
    void kill_now() {
        if (!running()) return;
        kill(pid_, SIGKILL);
        reap(0);
    }
    // Its exit code once it ended by itself; fails the test after `seconds`.
    int wait(double seconds = 60.0) {
        while (running()) {
            if (std::chrono::duration<double>(Clock::now() - started_).count() > seconds) {
                kill_now();
                FAIL("dpbo did not finish within ", seconds, " s");
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
        return WIFEXITED(*status_) ? WEXITSTATUS(*status_) : 128 + WTERMSIG(*status_);
    }
    long peak_kib() const { return peak_kib_; }
    std::string out() const { return read_text(out_); }
    std::string err() const { return read_text(err_); }

private:
    void reap(int options) {
        int status = 0;
        rusage usage{};
        if (wait4(pid_, &status, options, &usage) == pid_) {
            status_ = status;
            peak_kib_ = usage.ru_maxrss;
        }
    }

    std::string out_;
    std::string err_;
    pid_t pid_ = -1;
    Clock::time_point started_;
    std::optional<int> status_;
    long peak_kib_ = 0;
};

// Rows of `sql` on the journal `file` (a copy, so the run's own files stay as the kill left them),
// each column as text.
std::vector<std::vector<std::string>> query_copy(const fs::path& file, const fs::path& scratch,
                                                 const std::string& sql) {
    fs::create_directories(scratch);
    const fs::path copy = scratch / "journal.sqlite";
    fs::copy_file(file, copy, fs::copy_options::overwrite_existing);
    if (fs::exists(file.string() + "-wal"))
        fs::copy_file(file.string() + "-wal", copy.string() + "-wal", fs::copy_options::overwrite_existing);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(copy.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK);
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int c = 0; c < sqlite3_column_count(statement); ++c) {
            const auto* text = sqlite3_column_text(statement, c);
            row.emplace_back(text ? reinterpret_cast<const char*>(text) : "");
        }
        rows.push_back(std::move(row));
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return rows;
}

// The batches a running dpbo's journal holds (WAL readers never block its writer), or nothing.
std::optional<std::size_t> journal_batches(const fs::path& file) {
    if (!fs::exists(file)) return std::nullopt;
    sqlite3* db = nullptr;
    std::optional<std::size_t> out;
    if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_busy_timeout(db, 1000);
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM batches", -1, &statement, nullptr) == SQLITE_OK &&
            sqlite3_step(statement) == SQLITE_ROW)
            out = static_cast<std::size_t>(sqlite3_column_int64(statement, 0));
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return out;
}

// Requests the Python record objective evaluated (one JSON line each), from its --log-points file.
std::size_t logged_requests(const fs::path& log) {
    std::ifstream in(log);
    std::size_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    return lines;
}

std::vector<std::string> grid_arguments(std::size_t per_dimension, std::size_t batch) {
    return {"run",
            "--algorithm",
            "grid-search",
            "--objective",
            "branin",
            "--set",
            "algorithm.per_dimension=" + std::to_string(per_dimension),
            "--set",
            "algorithm.max_points=50000000",
            "--set",
            "algorithm.batch=" + std::to_string(batch),
            "--seed",
            "1"};
}

std::vector<std::string> with(std::vector<std::string> arguments, const std::vector<std::string>& more) {
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
}

}  // namespace

TEST_CASE("battery journal: a grid of 2.25 million points runs in the memory of one batch") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    // 1 500² points in batches of 50 000; the grid's points alone would take 36 MB, the old run held
    // them three times over besides a journal row per point.
    Dpbo small(with(grid_arguments(10, 50'000), {"--out", (root / "small").string()}), root / "small", root);
    REQUIRE(small.wait() == 0);
    Dpbo large(with(grid_arguments(1500, 50'000), {"--out", (root / "large").string()}), root / "large", root);
    const int code = large.wait();
    CAPTURE(large.err());
    REQUIRE(code == 0);
    MESSAGE("peak resident memory: ", small.peak_kib(), " KiB for 100 points, ", large.peak_kib(),
            " KiB for 2 250 000");
    // A batch's working copies are 50 000 × 3 doubles a few times over (about 5 MB).
    CHECK(large.peak_kib() - small.peak_kib() < 24 * 1024);
    const json result = without_timing(root / "large" / "result.json");
    CHECK(result["evaluations"] == 2'250'000);
    CHECK(read_text(root / "large" / "trace.csv").find("45,2250000,") != std::string::npos);
    // The journal is gone with the finished repeat.
    CHECK_FALSE(fs::exists(root / "large" / "journal.sqlite"));
}

TEST_CASE("battery journal: a search that would outgrow the machine's memory is refused by its keys first") {
    TemporaryDirectory dir;
    SUBCASE("random search without a mechanism: a trace row per batch") {
        const auto r = dpbo::test::run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--set",
                                             "algorithm.budget=1000000000000", "--set", "algorithm.batch=1", "--out",
                                             (fs::path(dir.path()) / "out").string()});
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err,
                       "algorithm 'random-search': budget = 1000000000000 in 2 dimensions with batch = 1 would "
                       "need about"));
        CHECK(contains(r.err, "(one batch at a time, and a trace row per batch); this machine has"));
        CHECK_FALSE(fs::exists(fs::path(dir.path()) / "out"));
    }
    SUBCASE("random search with a mechanism: every value is kept for the one release") {
        const auto r =
            dpbo::test::run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--mechanism",
                                  "gaussian", "--set", "algorithm.budget=10000000000", "--set",
                                  "algorithm.batch=100000", "--set", "algorithm.value_sensitivity=0.1", "--set",
                                  "mechanism.mu=1", "--out", (fs::path(dir.path()) / "out").string()});
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, "budget = 10000000000 in 2 dimensions with batch = 100000 and a mechanism would need"));
        CHECK(contains(r.err, "a mechanism releases all the values at once, so every point and value is kept"));
    }
}

TEST_CASE("battery journal: a grid run killed in the middle of a batch resumes to the uninterrupted result") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    // 6² = 36 points in batches of 4 (9 batches) of a Python objective that takes 30 ms a point.
    const std::vector<std::string> job = {
        "run",
        "--algorithm",
        "grid-search",
        "--objective",
        "command",
        "--set",
        "objective.command=python3 " + std::string(DPBO_SOURCE_DIR) +
            "/sdk/examples/python-objective/record_objective.py --dim 2 --seconds-per-point 0.03 --log-points " +
            log.string(),
        "--set",
        "algorithm.per_dimension=6",
        "--set",
        "algorithm.batch=4",
        "--seed",
        "2"};
    Dpbo uninterrupted(with(job, {"--out", (root / "whole").string()}), root / "whole", root);
    REQUIRE(uninterrupted.wait() == 0);
    const std::size_t whole_requests = logged_requests(log);
    CHECK(whole_requests == 9);

    const fs::path out = root / "killed";
    const fs::path journal = out / "journal.sqlite";
    {
        Dpbo killed(with(job, {"--out", out.string()}), root / "killed", root);
        while (killed.running() && journal_batches(journal).value_or(0) < 3)
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        // 60 ms into the next batch of 120 ms: its points are with the objective, its answers not yet.
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        REQUIRE(killed.running());
        killed.kill_now();
    }
    // The journal holds whole batches only, one row each: four values (8 bytes each) and a 32-byte
    // digest of the points; no trial rows.
    const auto rows = query_copy(journal, root / "scratch",
                                 "SELECT batch, size, length(vals), length(points_digest), "
                                 "(SELECT COUNT(*) FROM trials) FROM batches ORDER BY batch");
    REQUIRE(rows.size() >= 3);
    REQUIRE(rows.size() < 9);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        CAPTURE(i);
        CHECK(rows[i] == std::vector<std::string>{std::to_string(i), "4", "32", "32", "0"});
    }
    const std::size_t recorded = rows.size();

    Dpbo resumed(with(job, {"--out", out.string()}), root / "resumed", root);
    const int code = resumed.wait();
    CAPTURE(resumed.err());
    REQUIRE(code == 0);
    CHECK(contains(resumed.out(),
                   "from its journal: " + std::to_string(recorded) + " batch(es) and 0 release(s) replayed"));
    CHECK(without_timing(out / "result.json") == without_timing(root / "whole" / "result.json"));
    CHECK(read_text(out / "trace.csv") == read_text(root / "whole" / "trace.csv"));
    CHECK_FALSE(fs::exists(journal));
    // Killed and resumed: the nine batches once each, but for the one cut off (and any batch the
    // objective answered in the instant before the kill, before it was journaled).
    const std::size_t interrupted_requests = logged_requests(log) - whole_requests;
    CHECK(interrupted_requests >= 9);
    CHECK(interrupted_requests <= 10);
}

TEST_CASE("battery journal: a run without --out names its folder, and resumes from the journal kept there") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path log = root / "evaluations.jsonl";
    // Answers its first two requests and, while the file `die` exists, dies at its third: an
    // objective that crashes midway, then is mended.
    const fs::path program = root / "objective.py";
    std::ofstream(program) << "import json, os, sys\n"
                              "print(json.dumps({'protocol': 'dpbo-objective', 'version': 1, "
                              "'space': [{'lower': 0, 'upper': 1}]}), flush=True)\n"
                              "for count, line in enumerate(sys.stdin):\n"
                              "    if count == 2 and os.path.exists('"
                           << (root / "die").string()
                           << "'):\n"
                              "        sys.exit(3)\n"
                              "    points = json.loads(line)['points']\n"
                              "    with open('"
                           << log.string()
                           << "', 'a') as log:\n"
                              "        log.write(line)\n"
                              "    print(json.dumps({'values': [p[0] for p in points]}), flush=True)\n";
    std::ofstream(root / "die") << "";
    // 12 points in batches of 3: the run dies in its third batch.
    const std::vector<std::string> job = {"run",
                                          "--algorithm",
                                          "grid-search",
                                          "--objective",
                                          "command",
                                          "--set",
                                          "objective.command=python3 " + program.string(),
                                          "--set",
                                          "algorithm.per_dimension=12",
                                          "--set",
                                          "algorithm.batch=3",
                                          "--seed",
                                          "4"};
    Dpbo first(job, root / "first", root);
    CHECK(first.wait() == 1);
    const std::string err = first.err();
    CAPTURE(err);
    REQUIRE(fs::exists(root / "results"));
    const auto folders = std::vector<fs::directory_entry>(fs::directory_iterator(root / "results"), {});
    REQUIRE(folders.size() == 1);
    const fs::path folder = fs::path("results") / folders.front().path().filename();
    CHECK(contains(folder.string(), "results/grid-search-command-"));
    CHECK(contains(err, "dpbo run: writing into " + folder.string() +
                            " (no --out given); a run stopped midway resumes with --out " + folder.string()));
    CHECK(contains(err, "(everything the run did until then is in " + (folder / "journal.sqlite").string() +
                            ": run the same command again with --out " + folder.string() + " to resume it)"));
    CHECK(journal_batches(root / folder / "journal.sqlite") == std::optional<std::size_t>(2));
    CHECK(logged_requests(log) == 2);

    // Mended, and pointed at the folder: the two batches come from the journal, the other two are new.
    fs::remove(root / "die");
    Dpbo resumed(with(job, {"--out", folder.string()}), root / "resumed", root);
    const int code = resumed.wait();
    CAPTURE(resumed.err());
    REQUIRE(code == 0);
    CHECK(contains(resumed.out(), "from its journal: 2 batch(es) and 0 release(s) replayed"));
    CHECK(logged_requests(log) == 4);
    CHECK(without_timing(root / folder / "result.json")["evaluations"] == 12);
    CHECK_FALSE(fs::exists(root / folder / "journal.sqlite"));
    // Pointed at a folder, dpbo names none of its own.
    CHECK_FALSE(contains(resumed.err(), "no --out given"));
}
