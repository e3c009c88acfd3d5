// Issue 29's battery: a `command` objective's grandchild (a process the user's program forked) kept
// running after the run ended. The program's whole process group now ends with the run — when it
// finishes, when it fails, when dpbo is interrupted (SIGINT) and when dpbo is killed (SIGKILL) —
// even a grandchild that ignores SIGTERM.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "battery_proc_running_dpbo.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using dpbo::test::run_dpbo;
using dpbo::test::RunningDpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A program for the `command` objective that first forks a grandchild (in its process group) which
// ignores SIGTERM and sleeps, writing the grandchild's pid to `pid_file`; then it runs `rest`.
std::string forking_program(const fs::path& dir, const fs::path& pid_file, const std::string& rest) {
    const fs::path script = dir / "forking_program.sh";
    std::ofstream(script) << "sh -c 'trap \"\" TERM; exec sleep 300' &\n"
                          << "echo $! > " << pid_file.string() << "\n"
                          << rest << "\n";
    return "sh " + script.string();
}

const std::string kPythonObjective =
    std::string("exec python3 ") + DPBO_SOURCE_DIR + "/sdk/examples/python-objective/record_objective.py --dim 2";

pid_t read_pid(const fs::path& pid_file) {
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (Clock::now() < deadline) {
        std::ifstream in(pid_file);
        pid_t pid = 0;
        if (in >> pid && pid > 0) return pid;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    FAIL("the program did not write its grandchild's pid");
    return -1;
}

// Running: it exists and is not a zombie (a zombie has ended, only not yet been reaped).
bool running(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return false;
    const auto close = text.rfind(')');
    return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

// Whether `pid` has stopped running within `seconds`; the test kills it when not.
bool ends_within(pid_t pid, double seconds) {
    const auto deadline = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < deadline) {
        if (!running(pid)) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(pid, SIGKILL);
    return false;
}

std::vector<std::string> run_arguments(const fs::path& out, const std::string& command,
                                       const std::string& budget = "6") {
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

TEST_CASE("battery proc: a command objective's grandchild ends with a run that finishes or fails") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    SUBCASE("the run finishes") {
        const fs::path pid_file = root / "finishes.pid";
        const auto r =
            run_dpbo(run_arguments(root / "finishes", forking_program(root, pid_file, kPythonObjective)), {}, 60);
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        // dpbo waits for the program's group to end before it exits: nothing is left running.
        CHECK_FALSE(running(read_pid(pid_file)));
    }
    SUBCASE("the program breaks the protocol") {
        const fs::path pid_file = root / "fails.pid";
        const std::string rest =
            R"(echo '{"protocol":"dpbo-objective","version":1,"space":[{"lower":0,"upper":1}]}'; read line; )"
            "echo 'not json'; sleep 300";
        const auto r = run_dpbo(run_arguments(root / "fails", forking_program(root, pid_file, rest)), {}, 60);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "answered 'not json', which is not valid JSON"));
        CHECK_FALSE(running(read_pid(pid_file)));
    }
}

TEST_CASE("battery proc: a command objective's grandchild ends when dpbo is interrupted or killed") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    for (const int signal : {SIGINT, SIGKILL}) {
        CAPTURE(signal);
        const fs::path pid_file = root / (std::to_string(signal) + ".pid");
        // Slow enough to be running when the signal comes: 0.05 s a point, 200 points.
        RunningDpbo dpbo(run_arguments(root / std::to_string(signal),
                                       forking_program(root, pid_file, kPythonObjective + " --seconds-per-point 0.05"),
                                       "200"));
        const pid_t grandchild = read_pid(pid_file);
        CHECK(running(grandchild));
        CHECK(dpbo.stop_with(signal) == 128 + signal);
        // The program finishes its batch (at most 0.5 s) and exits at the end of its input; then its
        // group gets SIGTERM, which the grandchild ignores, and 1 s later SIGKILL.
        CHECK(ends_within(grandchild, 6.0));
    }
}
