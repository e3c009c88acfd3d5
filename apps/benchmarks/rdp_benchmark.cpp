// An accountant's speed (rdp by default, or --accountant pld) on the DP-SGD headline settings: ε at
// δ = 1e-5 for 10 000 steps of the
// subsampled Gaussian with q = 0.01 and σ = 1.1 and 4, Poisson and without replacement. For each,
// the CPU time of one ε in this process through the plugin as `dpbo account` loads it (the first
// call, which computes what later calls of the same σ reuse, and the median of later ones, each on a
// fresh accountant), and the CPU and wall time of the whole `dpbo account` process (medians of
// --runs). A last row times `dpbo account` on a plain Gaussian event: the process's start (loading
// the program, its libraries and the plugin) with next to no accounting.
//
//   build/bin/dpbo_bench_rdp build/bin/dpbo [--runs N] [--accountant rdp|pld]
//
// prints a Markdown table (the one in docs/benchmarks.md).
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "benchmark_support.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/privacy_event.hpp"

extern char** environ;

namespace {

using dpbo::bench::median;
using dpbo::bench::thread_cpu_seconds;

struct ProcessTime {
    double wall = 0.0, cpu = 0.0;  // seconds
};

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); }

// One run of `arguments`, its output discarded: wall seconds and the child's user + system CPU
// seconds; throws when it fails.
ProcessTime run_process(const std::vector<std::string>& arguments) {
    std::vector<std::string> copies = arguments;
    std::vector<char*> argv;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 01 /* O_WRONLY */, 0);
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
        throw std::runtime_error(fmt::format("cannot run {}", arguments[0]));
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    ProcessTime time;
    time.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    time.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(fmt::format("{} failed (status {})", fmt::join(arguments, " "), status));
    return time;
}

struct Timing {
    double epsilon = 0.0, first_ms = 0.0, later_ms = 0.0, process_cpu_ms = 0.0, process_wall_ms = 0.0;
};

Timing measure(const std::string& dpbo, const std::string& accountant_name, const std::string& event_text, int runs) {
    Timing timing;
    const dpbo::PrivacyEvent event = dpbo::parse_builtin_event(event_text);
    std::vector<double> later;
    for (int r = 0; r <= 5; ++r) {
        auto accountant = dpbo::bench::registry().create_as<dpbo::Accountant>(accountant_name, {});
        const double start = thread_cpu_seconds();
        accountant->compose(event);
        timing.epsilon = accountant->epsilon_for_delta(1e-5);
        const double ms = (thread_cpu_seconds() - start) * 1e3;
        if (r == 0)
            timing.first_ms = ms;
        else
            later.push_back(ms);
    }
    timing.later_ms = median(later);
    const std::vector<std::string> command = {dpbo,      "account",  "--accountant", accountant_name,
                                              "--event", event_text, "--delta",      "1e-5"};
    run_process(command);  // warm the page cache and the manifest cache
    std::vector<double> cpu, wall;
    for (int r = 0; r < runs; ++r) {
        const ProcessTime time = run_process(command);
        cpu.push_back(time.cpu * 1e3);
        wall.push_back(time.wall * 1e3);
    }
    timing.process_cpu_ms = median(cpu);
    timing.process_wall_ms = median(wall);
    return timing;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::strncmp(argv[1], "--", 2) == 0) {
        fmt::print(stderr, "usage: {} PATH/TO/dpbo [--runs N] [--accountant rdp|pld]\n", argv[0]);
        return 2;
    }
    int runs = 10;
    std::string accountant = "rdp";
    for (int i = 2; i < argc; i += 2) {
        const bool known = std::strcmp(argv[i], "--runs") == 0 || std::strcmp(argv[i], "--accountant") == 0;
        if (!known || i + 1 >= argc) {
            fmt::print(stderr, "{}: unknown option '{}'; expected --runs N or --accountant rdp|pld\n", argv[0],
                       argv[i]);
            return 2;
        }
        if (std::strcmp(argv[i], "--accountant") == 0) {
            accountant = argv[i + 1];
            if (accountant != "rdp" && accountant != "pld") {
                fmt::print(stderr, "{}: --accountant = '{}'; expected rdp or pld\n", argv[0], accountant);
                return 2;
            }
            continue;
        }
        char* end = nullptr;
        const long value = std::strtol(argv[i + 1], &end, 10);
        if (*end != '\0' || value < 1 || value > 1000) {
            fmt::print(stderr, "{}: --runs = '{}' must be a whole number in 1..1000\n", argv[0], argv[i + 1]);
            return 2;
        }
        runs = static_cast<int>(value);
    }
    if (!dpbo::bench::limit_blas_threads_or_report(argv[0])) return 2;
    fmt::print(
        "| event (δ = 1e-5) | ε | first ε, CPU ms | later ε, CPU ms (median of 5) | `dpbo account`, CPU ms "
        "(median of {0}) | `dpbo account`, wall ms (median of {0}) |\n",
        runs);
    fmt::print("|---|---|---|---|---|---|\n");
    std::vector<std::string> events;
    for (const char* sampling : {"poisson", "without-replacement"})
        for (const char* sigma : {"1.1", "4"})
            events.push_back(
                fmt::format("subsampled-gaussian:q=0.01,sigma={},steps=10000,sampling={}", sigma, sampling));
    events.push_back("gaussian:sigma=4,sensitivity=1");  // the process's start, next to no accounting
    for (const std::string& event : events) {
        const Timing t = measure(argv[1], accountant, event, runs);
        fmt::print("| `{}` | {:.6g} | {:.1f} | {:.1f} | {:.1f} | {:.1f} |\n", event, t.epsilon, t.first_ms, t.later_ms,
                   t.process_cpu_ms, t.process_wall_ms);
    }
    return 0;
}
