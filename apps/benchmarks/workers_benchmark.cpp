// Parallel evaluation's throughput (issue 15: --workers 2 on an objective that takes 100 ms per point
// gives ≥ 1.8× the throughput of one worker on a 2-core machine). The objective is a Python program
// through the `command` objective that sleeps 100 ms per point; a batch of 40 points is evaluated
// by the serial evaluator and by the parallel one with 2 workers (one replica of the objective),
// the programs already started; wall-clock time, best of 3.
//
//   dpbo_bench_workers [--points 40] [--seconds 0.1]
#include <chrono>
#include <exception>
#include <iostream>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/parallel_evaluator.hpp"
#include "dpbo/objective.hpp"

namespace {

std::string sleeper(double seconds) {
    return fmt::format(
        "python3 -c 'import json,sys,time\n"
        "print(json.dumps({{\"protocol\":\"dpbo-objective\",\"version\":1,\"space\":[{{\"lower\":0,\"upper\":1}}]}}), "
        "flush=True)\n"
        "for line in sys.stdin:\n"
        "    points = json.loads(line)[\"points\"]\n"
        "    time.sleep({} * len(points))\n"
        "    print(json.dumps({{\"values\": [p[0] for p in points]}}), flush=True)'",
        seconds);
}

double best_seconds(dpbo::Evaluator& evaluator, dpbo::Objective& objective, const arma::mat& points) {
    double best = std::numeric_limits<double>::infinity();
    for (int round = 0; round < 3; ++round) {
        const auto start = std::chrono::steady_clock::now();
        evaluator.evaluate(objective, points, {});
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    try {
        int count = 40;
        double seconds = 0.1;
        for (int i = 1; i + 1 < argc; i += 2) {
            const std::string flag = argv[i];
            if (flag == "--points")
                count = std::stoi(argv[i + 1]);
            else if (flag == "--seconds")
                seconds = std::stod(argv[i + 1]);
            else
                throw std::invalid_argument(fmt::format("unknown option {}", flag));
        }
        if (count < 2 || !(seconds > 0.0)) throw std::invalid_argument("--points must be >= 2, --seconds > 0");
        const std::string command = sleeper(seconds);
        auto objective = dpbo::bench::registry().create_as<dpbo::Objective>("command", {{"command", command}});
        auto replica = dpbo::bench::registry().create_as<dpbo::Objective>("command", {{"command", command}});
        const arma::mat points = arma::linspace(0.0, 1.0, static_cast<arma::uword>(count));
        dpbo::SerialEvaluator serial;
        dpbo::ParallelEvaluator parallel(2, {replica});
        const double one = best_seconds(serial, *objective, points);
        const double two = best_seconds(parallel, *objective, points);
        std::cout << fmt::format(
            "{} points at {} s each: 1 worker {:.3f} s, 2 workers {:.3f} s: {:.2f}x the throughput "
            "(target >= 1.8x)\n",
            count, seconds, one, two, one / two);
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_workers: " << e.what() << "\n";
        return 2;
    }
}
