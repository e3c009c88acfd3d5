// The selections' timing signal (issue 29): does the wall time of `select` tell an observer which
// of two score vectors it was given? Measured as the audit measured it: per world, R runs of D
// choices each (D = 200 by default), each run timed with the steady clock; the two worlds'
// runs interleaved in pairs, each pair in a random order (A B or B A), so that drift of the
// machine's speed falls on both alike; reported as per-world medians and a two-sample
// Kolmogorov–Smirnov test of the run times. flat-vs-flat is the control: two identical worlds.
//
// Worlds (ε = 1, Δq = 1, n candidates):
//   neighbours    A = (1, 0, …, 0) against B = (0, 1, …, 1): candidate 0 loses Δq and every
//                 other gains Δq, as neighbouring datasets' scores may (the audit's pair);
//   flat-vs-best  all scores equal against one clear best (the others 100 below it);
//   flat-vs-tail  all scores equal against a long tail q_i = −2·ln(1 + i) (weights 1/(1 + i));
//   flat-vs-flat  all scores equal in both worlds: the control, how often the measurement alone
//                 (a shared machine's load, the clock) tells two identical worlds apart.
//
// --cost instead reports the median thread-CPU µs of one choice for each n and shape (no comparison;
// CPU time, so that other processes on a shared machine do not inflate it).
//
//   dpbo_bench_selection_timing [--selection exponential,permute-and-flip] [--n 10,100,1000]
//       [--comparisons neighbours,flat-vs-best,flat-vs-tail,flat-vs-flat] [--runs 400] [--draws 200] [--seed 1]
//   dpbo_bench_selection_timing --cost [--n 10,100,1000,10000,1000000] [--repeats 5]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"

namespace {

using dpbo::bench::median;
using Clock = std::chrono::steady_clock;

struct Options {
    std::vector<std::string> selections{"exponential", "permute-and-flip"};
    std::vector<std::size_t> sizes{10, 100, 1000};
    std::vector<std::string> comparisons{"neighbours", "flat-vs-best", "flat-vs-tail", "flat-vs-flat"};
    std::size_t runs = 400;
    std::size_t draws = 200;
    std::size_t repeats = 5;
    std::uint64_t seed = 1;
    bool cost = false;
};

std::vector<std::string> split(const std::string& text) {
    std::vector<std::string> parts;
    std::stringstream stream(text);
    for (std::string part; std::getline(stream, part, ',');)
        if (!part.empty()) parts.push_back(part);
    return parts;
}

std::size_t positive_count(const std::string& text, const std::string& key) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0' || !(value >= 1.0) || value > 1e9 || value != std::floor(value))
        throw std::invalid_argument(fmt::format("{} = '{}': expected a whole number from 1 to 1e9", key, text));
    return static_cast<std::size_t>(value);
}

Options parse(int argc, char** argv) {
    Options options;
    bool sizes_given = false;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "--cost") {
            options.cost = true;
            continue;
        }
        if (i + 1 >= argc) throw std::invalid_argument(fmt::format("{} needs a value", key));
        const std::string value = argv[++i];
        if (key == "--selection")
            options.selections = split(value);
        else if (key == "--n") {
            options.sizes.clear();
            for (const auto& part : split(value)) options.sizes.push_back(positive_count(part, "--n"));
            sizes_given = true;
        } else if (key == "--comparisons")
            options.comparisons = split(value);
        else if (key == "--runs")
            options.runs = positive_count(value, key);
        else if (key == "--draws")
            options.draws = positive_count(value, key);
        else if (key == "--repeats")
            options.repeats = positive_count(value, key);
        else if (key == "--seed")
            options.seed = positive_count(value, key);
        else
            throw std::invalid_argument(fmt::format("unknown option '{}'", key));
    }
    if (options.cost && !sizes_given) options.sizes = {10, 100, 1000, 10000, 1000000};
    for (const auto& comparison : options.comparisons)
        if (comparison != "neighbours" && comparison != "flat-vs-best" && comparison != "flat-vs-tail" &&
            comparison != "flat-vs-flat")
            throw std::invalid_argument(fmt::format(
                "--comparisons: '{}' is not one of neighbours, flat-vs-best, flat-vs-tail, flat-vs-flat", comparison));
    return options;
}

arma::vec flat(std::size_t n) { return arma::vec(n, arma::fill::zeros); }

arma::vec one_clear_best(std::size_t n) {
    arma::vec scores(n, arma::fill::value(-100.0));
    scores[0] = 0.0;
    return scores;
}

arma::vec long_tail(std::size_t n) {
    arma::vec scores(n);
    for (std::size_t i = 0; i < n; ++i) scores[i] = -2.0 * std::log1p(static_cast<double>(i));
    return scores;
}

// The audit's neighbouring pair, widened to n candidates: candidate 0 loses Δq, the others gain Δq.
std::pair<arma::vec, arma::vec> neighbours(std::size_t n) {
    arma::vec a(n, arma::fill::zeros);
    a[0] = 1.0;
    arma::vec b(n, arma::fill::ones);
    b[0] = 0.0;
    return {a, b};
}

std::pair<arma::vec, arma::vec> worlds(const std::string& comparison, std::size_t n) {
    if (comparison == "neighbours") return neighbours(n);
    if (comparison == "flat-vs-best") return {flat(n), one_clear_best(n)};
    if (comparison == "flat-vs-flat") return {flat(n), flat(n)};
    return {flat(n), long_tail(n)};
}

class Chooser {
public:
    Chooser(const std::string& name, std::uint64_t seed)
        : selection_(dpbo::bench::registry().create_as<dpbo::Selection>(name, {{"epsilon", "1"}})),
          noise_(dpbo::PrivacyNoiseSource::from_seed(seed)) {
        selection_->calibrate(1.0);
    }

    // Wall seconds (or thread CPU seconds) of `draws` choices among `scores`; the ledger is made
    // before the clock starts.
    double time_run(const arma::vec& scores, std::size_t draws, std::size_t& sink, bool cpu = false) {
        dpbo::PrivacyLedger ledger(dpbo::bench::registry().create_as<dpbo::Accountant>("basic"), std::nullopt, noise_,
                                   "selection timing", dpbo::PrivacyLedger::Log::Discard);
        ledger.set_scope("scores moved by at most Δq", "one record");
        const double cpu_start = cpu ? dpbo::bench::thread_cpu_seconds() : 0.0;
        const auto start = Clock::now();
        for (std::size_t i = 0; i < draws; ++i) sink += selection_->select(scores, ledger, "timed choice");
        if (cpu) return dpbo::bench::thread_cpu_seconds() - cpu_start;
        return std::chrono::duration<double>(Clock::now() - start).count();
    }

private:
    std::shared_ptr<dpbo::Selection> selection_;
    dpbo::PrivacyNoiseSource noise_;
};

// Two-sample Kolmogorov–Smirnov: the statistic D and its asymptotic p-value
// Q_KS((√m + 0.12 + 0.11/√m)·D), m = n1·n2/(n1 + n2) (Stephens 1970; Press et al., Numerical
// Recipes, §14.3), Q_KS(λ) = 2 Σ_{k≥1} (−1)^{k−1} exp(−2k²λ²).
std::pair<double, double> kolmogorov_smirnov(std::vector<double> a, std::vector<double> b) {
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    std::size_t i = 0;
    std::size_t j = 0;
    double statistic = 0.0;
    while (i < a.size() && j < b.size()) {
        const double x = std::min(a[i], b[j]);
        while (i < a.size() && a[i] <= x) ++i;
        while (j < b.size() && b[j] <= x) ++j;
        statistic = std::max(statistic, std::fabs(static_cast<double>(i) / static_cast<double>(a.size()) -
                                                  static_cast<double>(j) / static_cast<double>(b.size())));
    }
    const double m =
        static_cast<double>(a.size()) * static_cast<double>(b.size()) / static_cast<double>(a.size() + b.size());
    const double lambda = (std::sqrt(m) + 0.12 + 0.11 / std::sqrt(m)) * statistic;
    if (lambda < 0.2) return {statistic, 1.0};
    double p = 0.0;
    for (int k = 1; k <= 100; ++k) {
        const double term = std::exp(-2.0 * k * k * lambda * lambda);
        p += (k % 2 == 1 ? 2.0 : -2.0) * term;
        if (term < 1e-300 || term < 1e-16 * p) break;
    }
    return {statistic, std::clamp(p, 0.0, 1.0)};
}

void compare(const Options& options) {
    fmt::print(
        "wall µs per run of {} choices (median over {} interleaved runs per world), two-sample KS on the "
        "run times; ε = 1, Δq = 1\n",
        options.draws, options.runs);
    fmt::print("{:<17} {:>7} {:<13} {:>12} {:>12} {:>8} {:>10}\n", "selection", "n", "comparison", "world A", "world B",
               "KS D", "KS p");
    std::size_t sink = 0;
    for (const auto& name : options.selections) {
        for (const std::size_t n : options.sizes) {
            for (const auto& comparison : options.comparisons) {
                const auto [a, b] = worlds(comparison, n);
                Chooser chooser(name, options.seed);
                chooser.time_run(a, options.draws, sink);  // warm-up: caches, the first allocation
                chooser.time_run(b, options.draws, sink);
                std::vector<double> times_a;
                std::vector<double> times_b;
                // Each pair of runs in an order drawn at random (experiment randomness, seeded): with
                // a fixed pattern, load that came and went in step with it would favour one world.
                std::mt19937_64 order(options.seed);
                for (std::size_t r = 0; r < options.runs; ++r) {
                    if ((order() >> 63) == 0) {
                        times_a.push_back(chooser.time_run(a, options.draws, sink));
                        times_b.push_back(chooser.time_run(b, options.draws, sink));
                    } else {
                        times_b.push_back(chooser.time_run(b, options.draws, sink));
                        times_a.push_back(chooser.time_run(a, options.draws, sink));
                    }
                }
                const auto [statistic, p] = kolmogorov_smirnov(times_a, times_b);
                fmt::print("{:<17} {:>7} {:<13} {:>12.1f} {:>12.1f} {:>8.3f} {:>10.2g}\n", name, n, comparison,
                           median(times_a) * 1e6, median(times_b) * 1e6, statistic, p);
                std::cout.flush();
            }
        }
    }
    fmt::print("(checksum {})\n", sink);
}

void cost(const Options& options) {
    fmt::print(
        "thread CPU µs per choice (median of {} repeats; each repeat times enough choices for ≥ 0.05 s), ε = 1, "
        "Δq = 1\n",
        options.repeats);
    fmt::print("{:<17} {:>8} {:>12} {:>12} {:>12}\n", "selection", "n", "flat", "clear best", "long tail");
    std::size_t sink = 0;
    for (const auto& name : options.selections) {
        for (const std::size_t n : options.sizes) {
            std::vector<double> per_shape;
            for (const arma::vec& scores : {flat(n), one_clear_best(n), long_tail(n)}) {
                Chooser chooser(name, options.seed);
                // Enough choices per repeat to last ≥ 0.05 s, found from one timed choice.
                const double once = chooser.time_run(scores, 1, sink, true);
                const auto draws = static_cast<std::size_t>(std::clamp(0.05 / std::max(once, 1e-9), 1.0, 1e6));
                std::vector<double> repeats;
                for (std::size_t r = 0; r < options.repeats; ++r)
                    repeats.push_back(chooser.time_run(scores, draws, sink, true) / static_cast<double>(draws));
                per_shape.push_back(median(repeats) * 1e6);
            }
            fmt::print("{:<17} {:>8} {:>12.2f} {:>12.2f} {:>12.2f}\n", name, n, per_shape[0], per_shape[1],
                       per_shape[2]);
            std::cout.flush();
        }
    }
    fmt::print("(checksum {})\n", sink);
}

}  // namespace

int main(int argc, char** argv) {
    try {
        const Options options = parse(argc, argv);
        if (options.cost)
            cost(options);
        else
            compare(options);
        return 0;
    } catch (const std::invalid_argument& e) {
        std::cerr << argv[0] << ": " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": " << e.what() << "\n";
        return 1;
    }
}
