// Ask/tell's overhead (issue 15: `dpbo ask` + `dpbo tell` ≤ 20 ms per trial with 1 000 trials in the
// study). A study of random search on branin (one point per batch, so every trial is one replayed
// batch) is filled with `--trials` told trials through the Study API in this process; then `--pairs`
// trials are asked and told through the dpbo executable beside this program, as a client would, and
// the wall-clock time of each ask + tell pair is measured (each started directly, as a client's
// subprocess call starts it, without a shell). Random search spends almost nothing on
// its own proposals, so what is measured is dpbo's: start-up, the study file, the replay.
//
//   dpbo_bench_ask_tell [--trials 1000] [--pairs 50]
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchmark_support.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/study.hpp"

namespace {

namespace fs = std::filesystem;

double branin(double x1, double x2) {
    const double pi = 3.14159265358979323846;
    const double b = 5.1 / (4 * pi * pi), c = 5 / pi, t = 1 / (8 * pi);
    const double u = x2 - b * x1 * x1 + c * x1 - 6;
    return u * u + 10 * (1 - t) * std::cos(x1) + 10;
}

// What `arguments` printed, run as a client runs it (no shell in between).
std::string output_of(const std::vector<std::string>& arguments) {
    int out[2];
    if (pipe(out) != 0) throw std::runtime_error("cannot make a pipe");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, out[0]);
    std::vector<char*> argv;
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int failed = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (failed != 0) throw std::runtime_error("cannot start " + arguments.front());
    std::string text;
    char buffer[4096];
    for (ssize_t n; (n = read(out[0], buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(fmt::format("failed: {} {}", arguments.front(), arguments.at(1)));
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        std::size_t trials = 1000, pairs = 50;
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--trials")
                trials = std::stoul(argv[i + 1]);
            else if (flag == "--pairs")
                pairs = std::stoul(argv[i + 1]);
            else
                throw std::invalid_argument(fmt::format("unknown option {}", flag));
        }
        if (pairs == 0) throw std::invalid_argument("--pairs must be at least 1");
        const fs::path dpbo = fs::canonical("/proc/self/exe").parent_path() / "dpbo";
        const dpbo::bench::ScratchFolder scratch("dpbo-bench-ask-tell");
        const fs::path& folder = scratch.path();
        const fs::path file = folder / "study.db";

        dpbo::JobSpec job;
        job.algorithm = {"random-search", {{"budget", std::to_string(trials + pairs + 1)}, {"batch", "1"}}};
        job.objective = {"branin", {}};
        job.seed = 1;
        dpbo::PluginRegistry& registry = dpbo::bench::registry();
        const auto fill_start = std::chrono::steady_clock::now();
        dpbo::Study::create(registry, file, job);
        {
            dpbo::Study study(registry, file);
            for (std::size_t i = 0; i < trials; ++i) {
                const dpbo::StudyState state = study.ask(1);
                if (state.handed.empty()) throw std::runtime_error("the study handed out no trial while filling");
                const dpbo::StoredTrial& trial = state.handed.front();
                study.tell(trial.id, {arma::rowvec{branin(trial.point(0), trial.point(1))}, {}, {}});
            }
        }
        const double fill = std::chrono::duration<double>(std::chrono::steady_clock::now() - fill_start).count();

        std::vector<double> ask_ms, tell_ms, pair_ms;
        for (std::size_t i = 0; i < pairs; ++i) {
            const auto start = std::chrono::steady_clock::now();
            const auto asked = nlohmann::json::parse(output_of({dpbo.string(), "ask", file.string()}));
            const auto middle = std::chrono::steady_clock::now();
            const auto& trial = asked.at("trials").at(0);
            const auto& point = trial.at("point");
            output_of({dpbo.string(), "tell", file.string(), std::to_string(trial.at("id").get<long>()), "--value",
                       fmt::format("{:.17g}", branin(point.at(0), point.at(1)))});
            const auto end = std::chrono::steady_clock::now();
            ask_ms.push_back(std::chrono::duration<double, std::milli>(middle - start).count());
            tell_ms.push_back(std::chrono::duration<double, std::milli>(end - middle).count());
            pair_ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        }
        std::cout << fmt::format(
            "filled {} trials in process in {:.2f} s; then {} ask + tell pairs through {}:\n"
            "  ask {:.1f} ms, tell {:.1f} ms, ask + tell {:.1f} ms per trial (median; target <= 20 ms)\n",
            trials, fill, pairs, dpbo.string(), dpbo::bench::median(ask_ms), dpbo::bench::median(tell_ms),
            dpbo::bench::median(pair_ms));
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_ask_tell: " << e.what() << "\n";
        return 2;
    }
}
