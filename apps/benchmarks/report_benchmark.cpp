// `dpbo report`'s time on a large job (issue 16: 100 repeats of a 1 000-evaluation run in ≤ 5 s).
// Writes 100 repeats of a gp-ucb-shaped result on normal-location — a trace row per evaluation,
// values decreasing noisily towards the optimum, regret, timings — with result.json files as dpbo
// writes them (the first repeat of a real run supplies the statement and job), then times
// `dpbo report` on the folder: wall-clock, best of 3, gnuplot included.
//
//   dpbo_bench_report DPBO_EXECUTABLE [--repeats 100] [--evaluations 1000]
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "benchmark_support.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

int run(const std::vector<std::string>& arguments) {
    std::vector<char*> argv;
    std::vector<std::string> copies = arguments;
    for (std::string& a : copies) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", 01 /* O_WRONLY */, 0);
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0)
        throw std::runtime_error(fmt::format("cannot run {}", arguments[0]));
    posix_spawn_file_actions_destroy(&actions);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void write(const fs::path& file, const std::string& text) {
    std::ofstream out(file);
    out << text;
}

// One repeat: the template's result with its trace replaced by `evaluations` rows.
void write_repeat(const fs::path& folder, const json& model, int repeat, int evaluations, std::mt19937_64& rng) {
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform(-5.0, 5.0);
    const double optimum = 1.0;
    std::string csv = "iteration,evaluations,value,best_value,acquisition,cpu_seconds,simple_regret,x[0],x[1]\n";
    double best = std::numeric_limits<double>::infinity();
    for (int i = 1; i <= evaluations; ++i) {
        const double spread = 6.0 * std::exp(-0.01 * i) + 0.01;
        const double x0 = 1.0 + spread * normal(rng), x1 = 1.0 + spread * normal(rng);
        const double value = optimum + 0.5 * ((x0 - 1.0) * (x0 - 1.0) + (x1 - 1.0) * (x1 - 1.0));
        best = std::min(best, value);
        csv += fmt::format("{},{},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g},{:.17g}\n", i, i, value, best,
                           uniform(rng), 0.001 * i, best - optimum, x0, x1);
    }
    json result = model;
    result["repeat"] = repeat;
    result["evaluations"] = evaluations;
    result["trace"]["rows"] = evaluations;
    result["released"]["best_value"]["value"] = best;
    result["released"]["simple_regret"]["value"] = best - optimum;
    const fs::path at = folder / fmt::format("repeat-{:03d}", repeat);
    fs::create_directories(at);
    write(at / "trace.csv", csv);
    write(at / "result.json", result.dump(2));
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (argc < 2)
            throw std::invalid_argument("usage: dpbo_bench_report DPBO_EXECUTABLE [--repeats N] [--evaluations N]");
        const std::string dpbo = argv[1];
        int repeats = 100, evaluations = 1000;
        for (int i = 2; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--repeats")
                repeats = std::stoi(argv[i + 1]);
            else if (flag == "--evaluations")
                evaluations = std::stoi(argv[i + 1]);
            else
                throw std::invalid_argument(fmt::format("unknown option {}", flag));
        }
        const dpbo::bench::ScratchFolder scratch("dpbo-report-bench");
        const fs::path& base = scratch.path();
        // The statement, job and trace columns of a real gp-ucb run, so the report reads what dpbo writes.
        const fs::path model_run = base / "model";
        if (run({dpbo, "run", "--algorithm", "gp-ucb", "--objective", "normal-location", "--set", "objective.dim=2",
                 "--set", "algorithm.budget=12", "--seed", "1", "--out", model_run.string()}) != 0)
            throw std::runtime_error("the model run failed");
        std::ifstream in(model_run / "result.json");
        const json model = json::parse(in);
        const fs::path folder = base / "job";
        std::mt19937_64 rng(7);
        for (int r = 1; r <= repeats; ++r) write_repeat(folder, model, r, evaluations, rng);
        double best = std::numeric_limits<double>::infinity();
        for (int round = 0; round < 3; ++round) {
            const auto start = std::chrono::steady_clock::now();
            if (run({dpbo, "report", folder.string(), "--out", (base / "report.html").string()}) != 0)
                throw std::runtime_error("dpbo report failed");
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
        std::cout << fmt::format(
            "dpbo report on {} repeats x {} evaluations: {:.2f} s (best of 3; target <= 5 s); "
            "page {:.1f} MB\n",
            repeats, evaluations, best, static_cast<double>(fs::file_size(base / "report.html")) / 1e6);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_report: " << e.what() << "\n";
        return 2;
    }
}
