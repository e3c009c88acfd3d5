// The cost of one evaluation of the `mlp` oracle (MNIST, MLP 784-128-64-10 trained by DP-SGD)
// across Table 1's lot sizes, to choose what a DPareto run must cut to fit in about an hour here:
// an evaluation costs about T · c(m) · R / threads, T the epochs, R the repetitions and c(m) one
// epoch of one training at lot size m (per-example clipping and the noise cost per step, so small
// lots cost more per epoch). Reported: wall-clock seconds of one epoch per training at each lot
// size: wall-clock seconds of an evaluation (R trainings) divided by T, with one and with two threads
// running the repetitions (one BLAS thread each, as the dpbo command runs), and the test error
// reached (a sanity check, not a result).
//
//   dpbo_bench_mlp_oracle [--epochs T] [--repetitions R] [--lots 16,64,256,1024,4000]
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"

int main(int argc, char** argv) {
    try {
        if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_mlp_oracle")) return 2;
        std::size_t epochs = 2, repetitions = 2;
        std::vector<double> lots{16, 64, 256, 1024, 4000};
        for (int i = 1; i < argc; ++i) {
            const std::string flag = argv[i];
            if (i + 1 >= argc) {
                std::cerr << "dpbo_bench_mlp_oracle: " << flag << " needs a value\n";
                return 2;
            }
            const std::string value = argv[++i];
            if (flag == "--epochs") {
                epochs = std::stoul(value);
            } else if (flag == "--repetitions") {
                repetitions = std::stoul(value);
            } else if (flag == "--lots") {
                lots.clear();
                std::stringstream list(value);
                for (std::string item; std::getline(list, item, ',');) lots.push_back(std::stod(item));
            } else {
                std::cerr << "dpbo_bench_mlp_oracle: unknown option " << flag
                          << "; expected --epochs, --repetitions or --lots\n";
                return 2;
            }
        }
        fmt::print("mlp oracle: {} epoch(s), {} repetition(s), learning rate 0.05, noise variance 1, clipping norm 1\n",
                   epochs, repetitions);
        fmt::print("{:>6} {:>8} {:>22} {:>10}\n", "lot", "threads", "wall s per epoch", "error");
        for (const std::size_t threads : {1, 2}) {
            auto objective =
                dpbo::bench::registry().create_as<dpbo::Objective>("mlp", {{"repetitions", std::to_string(repetitions)},
                                                                           {"threads", std::to_string(threads)},
                                                                           {"max_epochs", "400"}});
            for (const double lot : lots) {
                const arma::mat point{{static_cast<double>(epochs), lot, 0.05, 1.0, 1.0}};
                const auto start = std::chrono::steady_clock::now();
                const dpbo::Evaluations result = objective->evaluate(point, {});
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                fmt::print("{:>6} {:>8} {:>22.3f} {:>10.4f}\n", lot, threads, seconds / static_cast<double>(epochs),
                           result.values(0, 1));
            }
        }
        return 0;
    } catch (const std::exception& error) {
        std::cerr << "dpbo_bench_mlp_oracle: " << error.what() << '\n';
        return 1;
    }
}
