// The secure samplers' speed (issue 10): single-thread CPU µs per exact Gaussian and Laplace release
// (exact noise rounded exactly to the grid), per exact Bernoulli(exp(−γ)) and discrete Laplace draw,
// and — for reference only, never on the privacy path — the floating-point Box–Muller draw the
// samplers replaced, re-implemented here.
//
//   build/bin/dpbo_bench_noise [--draws N] [--seed S]
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "benchmark_support.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"

namespace {

using dpbo::bench::median;
using dpbo::bench::thread_cpu_seconds;

// The old, insecure way (53-bit uniforms through log and cos): a cost baseline, nothing more.
double box_muller_reference(dpbo::PrivacyNoiseSource& noise) {
    const auto uniform = [&] { return (static_cast<double>(noise.next_u64() >> 11) + 0.5) * 0x1.0p-53; };
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    return radius * std::cos(2.0 * std::numbers::pi * uniform());
}

// Median over five repeats of the CPU µs per call of `draw`, which returns a value kept alive in `sink`.
template <class Draw>
double microseconds_per_draw(std::size_t draws, Draw draw, double& sink) {
    std::vector<double> repeats;
    for (int r = 0; r < 5; ++r) {
        const double start = thread_cpu_seconds();
        for (std::size_t i = 0; i < draws; ++i) sink += draw(i);
        repeats.push_back((thread_cpu_seconds() - start) * 1e6 / static_cast<double>(draws));
    }
    return median(repeats);
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t draws = 200000;
    std::uint64_t seed = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--draws") == 0)
            draws = std::strtoull(argv[i + 1], nullptr, 10);
        else if (std::strcmp(argv[i], "--seed") == 0)
            seed = std::strtoull(argv[i + 1], nullptr, 10);
        else {
            fmt::print(stderr, "usage: {} [--draws N] [--seed S]\n", argv[0]);
            return 2;
        }
    }
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    double sink = 0.0;
    // Values with many low bits set, so the grid rounding does its full work.
    const double x = 1.0 / 3.0;
    fmt::print("single-thread CPU µs per draw, median of 5 repeats of {} draws\n", draws);
    const double gaussian = microseconds_per_draw(
        draws, [&](std::size_t) { return dpbo::privacy::gaussian_release(x, 0.7, noise); }, sink);
    fmt::print("  secure gaussian release (exact N(0, σ²), grid 2^-40 σ)   {:8.3f}\n", gaussian);
    arma::vec batch(15, arma::fill::value(x));
    const double gaussian_batch =
        microseconds_per_draw(
            draws / 15, [&](std::size_t) { return dpbo::privacy::gaussian_release(batch, 0.7, noise)[0]; }, sink) /
        15.0;
    fmt::print("  secure gaussian release, vectors of 15                  {:8.3f}\n", gaussian_batch);
    const double laplace = microseconds_per_draw(
        draws, [&](std::size_t) { return dpbo::privacy::laplace_release(x, 0.7, noise); }, sink);
    fmt::print("  secure laplace release (exact Laplace(0, b))            {:8.3f}\n", laplace);
    const double bernoulli = microseconds_per_draw(
        draws,
        [&](std::size_t) {
            return dpbo::privacy::bernoulli_exp_minus({0.1, 0.3}, noise) ? 1.0 : 0.0;
        },
        sink);
    fmt::print("  bernoulli(exp(-1/3)), gamma = 0.1/0.3 exactly            {:8.3f}\n", bernoulli);
    const double discrete = microseconds_per_draw(
        draws,
        [&](std::size_t) {
            return dpbo::privacy::discrete_laplace_release(0.0, {0.1, 1.0}, noise);
        },
        sink);
    fmt::print("  discrete laplace, decay 0.1                             {:8.3f}\n", discrete);
    const double reference = microseconds_per_draw(
        draws, [&](std::size_t) { return x + 0.7 * box_muller_reference(noise); }, sink);
    fmt::print("  reference only: old floating-point Box-Muller draw       {:8.3f}\n", reference);
    fmt::print("(checksum {:.6g})\n", sink);
    return 0;
}
