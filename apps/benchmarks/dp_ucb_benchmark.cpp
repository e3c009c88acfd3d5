// dp-ucb's CPU time (issue 12: |Λ| = 10 000, T = 100, γ_T included, in ≤ 0.2 s CPU).
//
// Per scenario it runs dp-ucb on synthetic-gp's 2-D grid (grid × grid candidates, Assumption 1
// holding by construction) several times, each with a freshly built objective and its own seed,
// and reports medians over the repeats of the thread CPU seconds of the algorithm's run():
//   - total: the whole run — γ_T (noisy only), the T GP-UCB steps, the selection of λ̃ and the
//     Laplace release;
//   - loop: the T steps alone (sum of the trace's cpu_seconds; objective evaluations included,
//     each one lookup in the sampled grid);
//   - the rest (γ_T, the selection over |Λ| candidates, the release) is total − loop.
// The objective's construction (sampling the GP on the grid) is not part of dp-ucb and not timed.
// Variants: noisy (Algorithm 1) and noise-free (Algorithm 2), each with the permute-and-flip and
// the exponential selection. lipschitz (Algorithm 3) has no candidate set, no γ_T and no
// selection: its cost is the inner BO's (gp surrogate, ucb acquisition), which dpbo_bench_gp
// measures, so it is not a scenario here.
// Thread CPU clocks, BLAS limited to one thread (DPBO_BLAS_THREADS).
//
//   dpbo_bench_dp_ucb [--grid 100] [--budget 100] [--repeats 5] [--seed 1]
#include <cstdint>
#include <exception>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/result.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// The target, CPU seconds for |Λ| = 10 000 and T = 100 with γ_T.
constexpr double kTargetSeconds = 0.2;

struct Options {
    int grid = 100;
    int budget = 100;
    int repeats = 5;
    std::uint64_t seed = 1;
};

Options parse(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        if (i + 1 >= argc) throw std::invalid_argument(fmt::format("{} needs a value", flag));
        const std::string value = argv[++i];
        if (flag == "--grid")
            options.grid = std::stoi(value);
        else if (flag == "--budget")
            options.budget = std::stoi(value);
        else if (flag == "--repeats")
            options.repeats = std::stoi(value);
        else if (flag == "--seed")
            options.seed = std::stoull(value);
        else
            throw std::invalid_argument(fmt::format("unknown option {}", flag));
    }
    if (options.grid < 2 || options.budget < 1 || options.repeats < 1)
        throw std::invalid_argument("--grid must be >= 2, --budget and --repeats >= 1");
    return options;
}

struct Scenario {
    std::string variant;
    std::string selection;
};

double trace_sum(const dpbo::Trace& trace, const std::string& name) {
    const std::size_t index = trace.column_index(name);
    double sum = 0.0;
    for (const auto& row : trace.rows()) sum += row[index];
    return sum;
}

double released(const dpbo::RunResult& result, const std::string& name) {
    for (const auto& value : result.released)
        if (value.name == name) return value.value(0, 0);
    return 0.0;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_dp_ucb")) return 2;
        const Options options = parse(argc, argv);
        const std::vector<Scenario> scenarios = {{"noisy", "permute-and-flip"},
                                                 {"noisy", "exponential"},
                                                 {"noise-free", "permute-and-flip"},
                                                 {"noise-free", "exponential"}};
        std::cout << fmt::format("|Lambda| = {} ({} x {} grid), T = {}, medians of {} seeded runs, CPU seconds\n",
                                 options.grid * options.grid, options.grid, options.grid, options.budget,
                                 options.repeats);
        std::cout << fmt::format("{:<12} {:<18} {:>9} {:>9} {:>9} {:>12} {:>12}\n", "variant", "selection", "total s",
                                 "loop s", "rest s", "gamma_greedy", "gamma_bound");
        for (const Scenario& scenario : scenarios) {
            const bool noisy = scenario.variant == "noisy";
            const Parameters objective_parameters = {{"dim", "2"},
                                                     {"grid", std::to_string(options.grid)},
                                                     {"lengthscale", "0.2"},
                                                     {"noise_stddev", noisy ? "0.1" : "0"}};
            Parameters algorithm_parameters = {
                {"variant", scenario.variant}, {"epsilon", "1"},       {"delta", "1e-4"},
                {"one_minus_k1", "0.01"},      {"lengthscale", "0.2"}, {"budget", std::to_string(options.budget)}};
            if (!noisy) {
                // A and τ of de Freitas et al. (2012) have no default; any values time the same.
                algorithm_parameters["A"] = "1";
                algorithm_parameters["tau"] = "0.1";
            }
            std::vector<double> totals, loops;
            double greedy = 0.0, bound = 0.0;
            for (int r = 0; r < options.repeats; ++r) {
                const std::uint64_t seed = options.seed + static_cast<std::uint64_t>(r);
                Parameters objective_for_run = objective_parameters;
                objective_for_run["seed"] = std::to_string(seed);
                auto objective = dpbo::bench::registry().create_as<dpbo::Objective>("synthetic-gp", objective_for_run);
                const auto run =
                    dpbo::bench::run_with_roles("dp-ucb", algorithm_parameters, *objective,
                                                {{"selection", {scenario.selection, {{"epsilon", "1"}}}}}, seed);
                totals.push_back(run.cpu_seconds);
                loops.push_back(trace_sum(run.result.trace, "cpu_seconds"));
                greedy = released(run.result, "gamma_T_greedy");
                bound = released(run.result, "gamma_T_bound");
            }
            const double total = dpbo::bench::median(totals);
            const double loop = dpbo::bench::median(loops);
            const auto gamma = [&](double value) { return noisy ? fmt::format("{:.3f}", value) : std::string("-"); };
            std::cout << fmt::format("{:<12} {:<18} {:>9.4f} {:>9.4f} {:>9.4f} {:>12} {:>12}\n", scenario.variant,
                                     scenario.selection, total, loop, total - loop, gamma(greedy), gamma(bound));
        }
        std::cout << fmt::format(
            "target (issue 12): total <= {} s CPU for |Lambda| = 10000, T = 100, gamma_T included\n", kTargetSeconds);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_dp_ucb: " << e.what() << "\n";
        return 2;
    }
}
