// Issue 29's battery: an interrupted run left its program's stderr file in /tmp
// (dpbo-program-stderr-*, which may hold data-dependent text), and one test-suite run left 33. Every
// temporary file dpbo makes now has no name (O_TMPFILE in $TMPDIR) or is unlinked as it is made:
// with TMPDIR pointed at a fresh folder, the commands the CLI tests use — a run with a `command`
// objective (finished, interrupted with SIGINT, killed), `dpbo check` of a good and of a crashing
// plugin, `dpbo report` (gnuplot's files), `dpbo curator release` — leave it empty, while they run
// and after; the manifest cache's folder holds the cache alone, and a run's folder dpbo's files alone.
#include <doctest/doctest.h>

#include <signal.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "battery_proc_running_dpbo.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::RunningDpbo;
using dpbo::test::TemporaryDirectory;

namespace {

std::vector<std::string> entries(const fs::path& folder) {
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder))
        names.push_back(fs::relative(entry.path(), folder).string());
    std::sort(names.begin(), names.end());
    return names;
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
    return out.empty() ? "(nothing)" : out;
}

// Whether `pid` has stopped running (gone, or a zombie) within `seconds`; the test kills it when not.
bool ends_within(pid_t pid, double seconds) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string text;
        if (!std::getline(stat, text)) return true;
        const auto close = text.rfind(')');
        if (close == std::string::npos || close + 2 >= text.size() || text[close + 2] == 'Z') return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    return false;
}

const std::string kPythonObjective =
    std::string("python3 ") + DPBO_SOURCE_DIR + "/sdk/examples/python-objective/record_objective.py --dim 2";

// A fresh TMPDIR and manifest cache for every dpbo the test starts.
struct Sandbox {
    TemporaryDirectory dir;
    fs::path tmp = fs::path(dir.path()) / "tmp";
    fs::path cache = fs::path(dir.path()) / "cache";
    std::map<std::string, std::string> environment;

    Sandbox() {
        fs::create_directories(tmp);
        fs::create_directories(cache);
        environment = {{"TMPDIR", tmp.string()}, {"XDG_CACHE_HOME", cache.string()}};
    }

    void check_clean(const std::string& after) const {
        CAPTURE(after);
        CHECK_MESSAGE(entries(tmp).empty(), "TMPDIR holds " << listed(entries(tmp)));
        const std::vector<std::string> cached = entries(cache);
        CHECK_MESSAGE(std::all_of(cached.begin(), cached.end(),
                                  [](const std::string& n) { return n == "dpbo" || n == "dpbo/plugin-manifests-3"; }),
                      "the cache folder holds " << listed(cached));
    }
};

std::vector<std::string> command_run(const fs::path& out, const std::string& command, const std::string& budget) {
    return {"run",
            "--algorithm",
            "random-search",
            "--set",
            "algorithm.budget=" + budget,
            "--objective",
            "command",
            "--set",
            "objective.command=" + command,
            "--seed",
            "1",
            "--out",
            out.string()};
}

}  // namespace

TEST_CASE("battery proc: the CLI's typical commands leave no file in TMPDIR, even interrupted") {
    Sandbox box;
    const fs::path root = box.dir.path();

    const auto run = run_dpbo(command_run(root / "run", kPythonObjective, "6"), box.environment, 60);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    box.check_clean("a run with a command objective");
    CHECK(entries(root / "run") == std::vector<std::string>{"job.json", "job.lock", "result.json", "trace.csv"});

    // The program's stderr file has no name even while the run goes on.
    for (const int signal : {SIGINT, SIGKILL}) {
        CAPTURE(signal);
        const fs::path out = root / ("stopped-" + std::to_string(signal));
        RunningDpbo dpbo(command_run(out, kPythonObjective + " --seconds-per-point 0.02", "200"), box.environment);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
        while (!fs::exists(out / "journal.sqlite") && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        box.check_clean("a run with a command objective, while it runs");
        CHECK(dpbo.stop_with(signal) == 128 + signal);
        box.check_clean("a run with a command objective, stopped");
        for (const std::string& name : entries(out)) {
            CAPTURE(name);
            CHECK((name == "job.json" || name == "job.lock" || name.rfind("journal.sqlite", 0) == 0));
        }
    }

    const auto good =
        run_dpbo({"check", (fs::path(DPBO_TEST_PLUGIN_DIR) / "objective-branin.so").string()}, box.environment, 60);
    CHECK_MESSAGE(good.exit_code == 0, good.out);
    box.check_clean("dpbo check of a good plugin");
    const auto crashing =
        run_dpbo({"check", (fs::path(DPBO_TEST_HOSTILE_PLUGIN_DIR) / "hostile-mechanism_segfaults.so").string()},
                 box.environment, 60);
    CHECK(crashing.exit_code == 1);
    CHECK(crashing.out.find("signal 11") != std::string::npos);
    box.check_clean("dpbo check of a crashing plugin");

    // A check killed while its module waits for a program: the check's stderr file, the check and
    // the program all go with it.
    const fs::path pid_file = root / "checked-program.pid";
    RunningDpbo checking(
        {"check", (fs::path(DPBO_TEST_PLUGIN_DIR) / "objective-command.so").string(), "--set",
         "command.command=echo $$ > " + pid_file.string() + "; exec sleep 60", "--set", "command.timeout=60"},
        box.environment);
    pid_t program = 0;
    const auto started = std::chrono::steady_clock::now();
    while (!(std::ifstream(pid_file) >> program) &&
           std::chrono::steady_clock::now() - started < std::chrono::seconds(20))
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    REQUIRE(program > 0);
    box.check_clean("dpbo check, while it runs");
    CHECK(checking.stop_with(SIGKILL) == 128 + SIGKILL);
    CHECK(ends_within(program, 6.0));
    box.check_clean("dpbo check, killed");

    const auto repeats = run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--repeat", "2",
                                   "--seed", "1", "--out", (root / "repeats").string()},
                                  box.environment, 60);
    REQUIRE(repeats.exit_code == 0);
    const auto report =
        run_dpbo({"report", (root / "repeats").string(), "--out", (root / "page.html").string()}, box.environment, 60);
    CHECK_MESSAGE(report.exit_code == 0, report.err);
    CHECK(fs::exists(root / "page.html"));
    box.check_clean("dpbo report");

    const auto release =
        run_dpbo({"curator", "release", "--objective", "loan-roi", "--seed", "1", "--out", (root / "release").string()},
                 box.environment, 60);
    CHECK_MESSAGE(release.exit_code == 0, release.err);
    CHECK(entries(root / "release") ==
          std::vector<std::string>{"curator_only.json", "release.json", "released_rows.csv"});
    box.check_clean("dpbo curator release");
}
