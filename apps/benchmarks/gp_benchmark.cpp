// The GP layer's speed (issue 3): CPU time per gp-ucb iteration on Rosenbrock-10 with fixed
// hyperparameters as the data grows, one ARD marginal-likelihood refit at n = 200 in 10-D, one
// posterior-gradient evaluation, and the cost of appending a point as n doubles.
//
//   build/bin/dpbo_bench_gp [--max-n N] [--seed S] [--optimiser NAME] [--solve-floor]
// (--optimiser: gp-ucb's acquisition optimiser, e.g. sweep-local; default: the loop's default;
// --solve-floor: only the floor of an iteration's 500 fresh triangular solves, see solve_floor)
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/util/blas_threads.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/hyperparameter_fit.hpp"
#include "dpbo/random.hpp"
#include "gp/few_column_solve.hpp"

namespace {

using dpbo::bench::median;
using dpbo::bench::thread_cpu_seconds;

double rosenbrock(const arma::rowvec& x) {
    double sum = 0.0;
    for (arma::uword i = 0; i + 1 < x.n_elem; ++i)
        sum += 100.0 * std::pow(x(i + 1) - x(i) * x(i), 2) + std::pow(1.0 - x(i), 2);
    return sum;
}

// Rosenbrock-10 values at n points of the unit cube mapped to [-2.048, 2.048]^10, standardised.
void rosenbrock_data(std::size_t n, dpbo::ExperimentRng& rng, arma::mat& unit, arma::vec& y) {
    unit = rng.uniform(n, 10);
    y.set_size(n);
    for (std::size_t i = 0; i < n; ++i) y(i) = rosenbrock(-2.048 + 4.096 * unit.row(i));
    y = (y - arma::mean(y)) / arma::stddev(y);
}

dpbo::gp::GaussianProcess make_gp(bool ard) {
    dpbo::gp::KernelSpec spec;
    spec.family = dpbo::gp::KernelFamily::Matern52;
    spec.dim = 10;
    spec.lengthscales = ard ? arma::vec(10, arma::fill::value(0.5)) : arma::vec{0.5};
    dpbo::gp::GpSettings settings;
    settings.noise_variance = 1e-4;
    return dpbo::gp::GaussianProcess(dpbo::gp::make_kernel(spec), settings);
}

void bo_iterations(std::size_t max_n, std::uint64_t seed, const std::string& optimiser) {
    fmt::print(
        "gp-ucb on Rosenbrock-10, fixed hyperparameters (Matern 5/2, l = 0.5, unit cube), "
        "acquisition optimiser {} with 500 acquisition evaluations\n",
        optimiser.empty() ? std::string("default") : optimiser);
    std::map<std::string, std::string> algorithm = {{"budget", std::to_string(max_n + 1)}, {"initial_points", "10"}};
    if (!optimiser.empty()) algorithm["optimiser"] = optimiser;
    const double start = dpbo::bench::process_cpu_seconds();
    const dpbo::RunResult result = dpbo::bench::run_once("gp-ucb", algorithm, "rosenbrock", {{"dim", "10"}}, "gp",
                                                         {{"kernel", "matern52"},
                                                          {"lengthscale", "0.5"},
                                                          {"mean", "constant"},
                                                          {"standardise", "true"},
                                                          {"noise_variance", "1e-4"},
                                                          {"fit", "none"}},
                                                         "ucb", {{"beta_schedule", "constant"}, {"beta", "2"}}, seed);
    const double total = dpbo::bench::process_cpu_seconds() - start;
    const auto& trace = result.trace;
    const std::size_t cpu = trace.column_index("cpu_seconds");
    const std::size_t evaluations = trace.column_index("evaluations");
    const std::size_t regret = trace.column_index("simple_regret");
    fmt::print("  {:>6}  {:>14}  {:>16}\n", "n", "ms/iteration", "ms per n^2 x 1e6");
    for (const std::size_t target : {50, 100, 200, 400, 1000}) {
        if (target > max_n) continue;
        std::vector<double> times;
        for (const auto& row : trace.rows()) {
            const double n = row[evaluations] - 1.0;  // observations the iteration started from
            if (row[0] > 0 && std::abs(n - static_cast<double>(target)) <= 10.0) times.push_back(row[cpu]);
        }
        const double ms = 1e3 * median(times);
        fmt::print("  {:>6}  {:>14.3f}  {:>16.3f}\n", target, ms,
                   ms / (static_cast<double>(target) * static_cast<double>(target)) * 1e6);
    }
    for (const auto& row : trace.rows())
        if (row[evaluations] == 200.0 || &row == &trace.rows().back())
            fmt::print("  simple regret after {:>4.0f} evaluations: {:.4g}\n", row[evaluations], row[regret]);
    fmt::print("  whole run: {:.2f} s CPU for {} evaluations\n", total, result.evaluations);
}

void refit(std::uint64_t seed) {
    std::vector<double> times;
    double likelihood = 0.0;
    for (int repeat = 0; repeat < 3; ++repeat) {
        dpbo::ExperimentRng rng(seed + static_cast<std::uint64_t>(repeat));
        arma::mat x;
        arma::vec y;
        rosenbrock_data(200, rng, x, y);
        auto gp = make_gp(true);
        gp.condition(x, y);
        const double start = thread_cpu_seconds();
        const auto fit = dpbo::gp::fit_hyperparameters(gp, dpbo::gp::FitSettings{}, rng);
        times.push_back(thread_cpu_seconds() - start);
        likelihood = fit.log_marginal_likelihood;
    }
    fmt::print(
        "ARD marginal-likelihood refit, n = 200, d = 10 (L-BFGS, current + 2 random starts, noise fitted): "
        "{:.3f} s CPU (median of 3; last log-likelihood {:.2f})\n",
        median(times), likelihood);
}

void posterior_gradient(std::uint64_t seed) {
    dpbo::ExperimentRng rng(seed);
    arma::mat x;
    arma::vec y;
    rosenbrock_data(200, rng, x, y);
    auto gp = make_gp(true);
    gp.condition(x, y);
    const arma::mat queries = rng.uniform(2000, 10);
    double checksum = 0.0;
    const double start = thread_cpu_seconds();
    for (arma::uword i = 0; i < queries.n_rows; ++i) {
        checksum += gp.mean_gradient(queries.row(i))(0);
        checksum += arma::trace(gp.gradient_covariance(queries.row(i)));
    }
    const double per_call = (thread_cpu_seconds() - start) / static_cast<double>(queries.n_rows);
    fmt::print("posterior mean gradient + gradient covariance, n = 200, d = 10: {:.1f} us CPU each (checksum {:.3g})\n",
               1e6 * per_call, checksum);
}

void append_cost(std::uint64_t seed) {
    fmt::print("appending one point (block Cholesky update), d = 10:\n  {:>6}  {:>10}  {:>16}\n", "n", "us",
               "us per n^2 x 1e4");
    dpbo::ExperimentRng rng(seed);
    arma::mat x;
    arma::vec y;
    rosenbrock_data(3201, rng, x, y);
    for (const std::size_t n : {200, 400, 800, 1600, 3200}) {
        auto gp = make_gp(true);
        gp.condition(x.rows(0, n - 1), y.subvec(0, n - 1));
        std::vector<double> times;
        for (int repeat = 0; repeat < 15; ++repeat) {
            const double start = thread_cpu_seconds();
            gp.append(x.row(n), arma::vec{y(n)});
            times.push_back(thread_cpu_seconds() - start);
            gp.truncate(n);
        }
        const double us = 1e6 * median(times);
        fmt::print("  {:>6}  {:>10.1f}  {:>16.3f}\n", n, us,
                   us / (static_cast<double>(n) * static_cast<double>(n)) * 1e4);
    }
}

// The floor of an iteration that scores 500 new points: each is one triangular solve against the
// n-point Cholesky factor, and batched DIRECT can solve only one DIRECT iteration's centres together
// (it needs their scores to choose the next; about five on Rosenbrock-10). Timed m right-hand sides
// at a time, 500 / m calls: LAPACK's dtrtrs (OpenBLAS on one thread) and the toolkit's own
// few-column solve (gp/few_column_solve.hpp), which the GP uses up to kFewColumns columns. m = 500,
// all in one call, is the BLAS-3 limit no optimiser that needs each batch's scores can beat: the
// rate it reaches (n² flops a solve) is the machine's, printed beside it.
void solve_floor(std::uint64_t seed) {
    fmt::print(
        "floor: 500 triangular solves against the n-point factor, m right-hand sides at a time "
        "(ms; LAPACK dtrtrs, and the GP's own few-column solve up to {} columns)\n",
        dpbo::gp::detail::kFewColumns);
    fmt::print("  {:>6}  {:>4}  {:>10}  {:>10}\n", "n", "m", "dtrtrs", "own");
    dpbo::ExperimentRng rng(seed);
    for (const arma::uword n : {200, 1000}) {
        const arma::mat a = rng.uniform(n, n);
        const arma::mat lower = arma::chol(a * a.t() / static_cast<double>(n) + arma::eye(n, n), "lower");
        for (const arma::uword m : {4, 8, 16, 32, 500}) {
            const arma::mat right = rng.uniform(n, m);
            const std::size_t calls = 500 / m;
            const auto time_500 = [&](const auto& solve) {
                std::vector<double> times;
                arma::mat block;
                for (int repeat = 0; repeat < 7; ++repeat) {
                    double elapsed = 0.0;
                    for (std::size_t call = 0; call < calls; ++call) {
                        block = right;
                        const double start = thread_cpu_seconds();
                        const std::ptrdiff_t info = solve(block);
                        elapsed += thread_cpu_seconds() - start;
                        if (info != 0) throw std::runtime_error("a triangular solve failed");
                    }
                    times.push_back(elapsed * 500.0 / static_cast<double>(calls * m));
                }
                return 1e3 * median(times);
            };
            const double lapack = time_500([&](arma::mat& block) {
                char uplo = 'L', trans = 'N', diag = 'N';
                arma::blas_int order = static_cast<arma::blas_int>(n), columns = static_cast<arma::blas_int>(m);
                arma::blas_int info = 0;
                arma::lapack::trtrs(&uplo, &trans, &diag, &order, &columns, lower.memptr(), &order, block.memptr(),
                                    &order, &info);
                return static_cast<std::ptrdiff_t>(info);
            });
            if (m <= dpbo::gp::detail::kFewColumns) {
                const double own = time_500([&](arma::mat& block) {
                    return dpbo::gp::detail::few_column_lower_solve(lower.memptr(), n, n, block.memptr(), m);
                });
                fmt::print("  {:>6}  {:>4}  {:>10.3f}  {:>10.3f}\n", n, m, lapack, own);
            } else if (m == 500) {
                // n² flops a solve: n²/2 multiply-adds
                const double gflops = 500.0 * static_cast<double>(n) * static_cast<double>(n) / (lapack * 1e6);
                fmt::print("  {:>6}  {:>4}  {:>10.3f}  {:>10}  ({:.1f} GFLOP/s)\n", n, m, lapack, "-", gflops);
            } else {
                fmt::print("  {:>6}  {:>4}  {:>10.3f}  {:>10}\n", n, m, lapack, "-");
            }
        }
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t max_n = 1000;
    std::uint64_t seed = 1;
    std::string optimiser;
    bool floor_only = false;
    for (int i = 1; i < argc; ++i) {
        const bool has_value = i + 1 < argc;
        if (std::strcmp(argv[i], "--solve-floor") == 0)
            floor_only = true;
        else if (std::strcmp(argv[i], "--max-n") == 0 && has_value)
            max_n = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--seed") == 0 && has_value)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (std::strcmp(argv[i], "--optimiser") == 0 && has_value)
            optimiser = argv[++i];
        else {
            std::cerr << "usage: dpbo_bench_gp [--max-n N] [--seed S] [--optimiser NAME] [--solve-floor]\n";
            return 2;
        }
    }
    if (max_n < 20) {
        std::cerr << "dpbo_bench_gp: --max-n must be at least 20\n";
        return 2;
    }
    if (!dpbo::bench::limit_blas_threads_or_report("dpbo_bench_gp")) return 2;
    try {
        if (floor_only) {
            solve_floor(seed);
            return 0;
        }
        bo_iterations(max_n, seed, optimiser);
        refit(seed);
        posterior_gradient(seed);
        append_cost(seed);
    } catch (const std::exception& e) {
        std::cerr << "dpbo_bench_gp: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
