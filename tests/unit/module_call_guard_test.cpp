#include <doctest/doctest.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"

namespace {

const char* const kWho = "objective 'x' (from /plugins/objective-x.so)";

// Runs `body` in a child process with stderr captured; returns what it printed and how it ended.
template <class Body>
std::pair<std::string, int> in_child(Body body) {
    int pipe_ends[2];
    REQUIRE(::pipe(pipe_ends) == 0);
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        ::dup2(pipe_ends[1], STDERR_FILENO);
        ::close(pipe_ends[0]);
        // The test framework's own crash handlers are not what is under test: the report passes the
        // signal on to the default action.
        for (const int s : {SIGSEGV, SIGABRT, SIGFPE, SIGILL, SIGBUS}) ::signal(s, SIG_DFL);
        dpbo::install_fatal_signal_report();
        body();
        ::_exit(0);
    }
    ::close(pipe_ends[1]);
    std::string printed;
    char buffer[512];
    for (ssize_t n; (n = ::read(pipe_ends[0], buffer, sizeof buffer)) > 0;)
        printed.append(buffer, static_cast<std::size_t>(n));
    ::close(pipe_ends[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    return {printed, status};
}

}  // namespace

TEST_CASE("module call guard: any exception becomes a run error naming the module and what it was doing") {
    CHECK_THROWS_WITH_AS(dpbo::call_into_module(kWho, "evaluating points", []() -> int { throw 42; }),
                         "objective 'x' (from /plugins/objective-x.so) failed while evaluating points: a non-standard "
                         "exception of type 'int'",
                         dpbo::RunError);
    CHECK_THROWS_WITH_AS(
        dpbo::call_into_module(kWho, "running", []() -> int { throw std::out_of_range("index 7"); }),
        "objective 'x' (from /plugins/objective-x.so) failed while running: std::out_of_range: index 7",
        dpbo::RunError);
    // dpbo's own errors are the module's chosen words (and exit codes): they pass unchanged.
    CHECK_THROWS_WITH_AS(
        dpbo::call_into_module(kWho, "running", []() -> int { throw dpbo::ValidationError("bad key"); }), "bad key",
        dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::call_into_module(kWho, "running", []() -> int { throw dpbo::BudgetExceeded("spent"); }),
                         "spent", dpbo::BudgetExceeded);
    CHECK(dpbo::call_into_module(kWho, "running", [] { return 7; }) == 7);
}

TEST_CASE("module call guard: a fatal signal inside the call is reported for the innermost module, then kills") {
    const auto [printed, status] = in_child([] {
        dpbo::ModuleCallGuard outer("algorithm 'a' (from /plugins/algorithm-a.so)", "running");
        dpbo::ModuleCallGuard inner(kWho, "evaluating points");
        ::raise(SIGFPE);
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGFPE);
    CHECK(printed ==
          "dpbo: fatal signal SIGFPE (arithmetic exception) in objective 'x' (from "
          "/plugins/objective-x.so) while evaluating points; the process stops\n");

    const auto [after, after_status] = in_child([] {
        { dpbo::ModuleCallGuard done(kWho, "evaluating points"); }
        ::abort();
    });
    // Outside every guard the signal takes its course without a word about a module.
    CHECK(WIFSIGNALED(after_status));
    CHECK(WTERMSIG(after_status) == SIGABRT);
    CHECK(after.find("dpbo: fatal signal") == std::string::npos);
}

TEST_CASE("module call guard: the report is one whole line while another thread writes to stderr") {
    // With --workers the other threads keep running while one crashes; a report written in pieces
    // could be split by their output. Twenty crashes, each beside a thread writing 'x' without pause:
    // the report must come out whole every time.
    const std::string expected =
        "dpbo: fatal signal SIGFPE (arithmetic exception) in objective 'x' (from "
        "/plugins/objective-x.so) while evaluating points; the process stops\n";
    for (int attempt = 0; attempt < 20; ++attempt) {
        CAPTURE(attempt);
        const auto [printed, status] = in_child([] {
            std::atomic<bool> writing{false};
            std::thread([&writing] {
                for (;;) {
                    writing.store(true);
                    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, "x", 1);
                }
            }).detach();
            while (!writing.load()) std::this_thread::yield();
            dpbo::ModuleCallGuard guard(kWho, "evaluating points");
            ::raise(SIGFPE);
        });
        CHECK(WIFSIGNALED(status));
        CHECK_MESSAGE(printed.find(expected) != std::string::npos, printed.substr(0, 400));
    }
}
