// The dpbo-objective protocol's overhead (issue 15: a round trip with a persistent Python worker
// ≤ 1 ms): the `command` objective running the SDK's Python example (2-D, 20 records, run from the
// repository's root) in persistent mode, one point per request, wall-clock time per evaluate() —
// dpbo's JSON, the pipe both ways, Python's JSON and its loss over 20 records. Median over blocks.
//
//   dpbo_bench_command_objective [--calls 2000] [--blocks 5] [--command 'python3 ...']
#include <chrono>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"

int main(int argc, char** argv) {
    try {
        int calls = 2000;
        int blocks = 5;
        std::string command = "python3 sdk/examples/python-objective/record_objective.py --dim 2 --records 20";
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--calls")
                calls = std::stoi(argv[i + 1]);
            else if (flag == "--blocks")
                blocks = std::stoi(argv[i + 1]);
            else if (flag == "--command")
                command = argv[i + 1];
            else
                throw std::invalid_argument(fmt::format("unknown option {}", flag));
        }
        if (calls < 1 || blocks < 1) throw std::invalid_argument("--calls and --blocks must be >= 1");
        auto objective = dpbo::bench::registry().create_as<dpbo::Objective>("command", {{"command", command}});
        const arma::mat point{{0.3, -0.2}};
        std::vector<double> per_call;
        for (int b = 0; b < blocks; ++b) {
            const auto start = std::chrono::steady_clock::now();
            for (int c = 0; c < calls; ++c) objective->evaluate(point, dpbo::EvaluationRequest{});
            const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
            per_call.push_back(took.count() / calls);
        }
        std::cout << fmt::format("`{}`: {:.1f} µs per round trip (median of {} blocks of {} calls; target ≤ 1000 µs)\n",
                                 command, 1e6 * dpbo::bench::median(per_call), blocks, calls);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_command_objective: " << e.what() << "\n";
        return 2;
    }
}
