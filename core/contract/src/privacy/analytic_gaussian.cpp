// The analytic Gaussian mechanism's calibration (Balle & Wang 2018, Thm 8), shared by every
// release that adds Gaussian noise for an (ε, δ) target.
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/math/normal.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"

namespace dpbo {

namespace {

// μ = Δ/σ rounded up, so a check at this μ covers the mechanism's true Δ/σ.
double mu_upper(double sensitivity, double sigma) {
    return std::nextafter(sensitivity / sigma, std::numeric_limits<double>::infinity());
}

// The double-precision δ cancels for tiny ε or δ (ε = δ = 1e−300 used to give a σ achieving only
// δ ≈ 5.6e−17). The σ found is checked against the exact bound; where it fails, σ grows by
// doubling and bisection on the bound, so the σ returned provably achieves the δ claimed.
double verified_sigma(double epsilon, double delta, double sensitivity, double sigma, const std::string& owner) {
    const auto holds = [&](double s) { return gdp_delta_upper_bound(mu_upper(sensitivity, s), epsilon) <= delta; };
    if (holds(sigma)) return sigma;
    double lo = sigma;
    double hi = 2.0 * sigma;
    while (!holds(hi)) {
        lo = hi;
        hi *= 2.0;
        if (!std::isfinite(hi) || !std::isfinite(sensitivity / hi) || sensitivity / hi == 0.0) {
            throw ValidationError(
                fmt::format("{}: epsilon = {} with delta = {} needs a noise scale beyond the largest finite double for "
                            "sensitivity = {}; allowed: a larger epsilon or delta",
                            owner, epsilon, delta, sensitivity));
        }
    }
    return smallest_satisfying(holds, lo, hi, 1e-13 * hi);
}

// Balle & Wang's condition Φ(Δ/(2σ) − εσ/Δ) − e^ε Φ(−Δ/(2σ) − εσ/Δ) ≤ δ is exactly
// gdp_delta(Δ/σ, ε) ≤ δ, and it holds for every σ above the threshold, so bisection over σ finds
// the smallest σ and returns one at which the condition was checked to hold.
}  // namespace

double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity, const std::string& owner) {
    const auto holds = [&](double sigma) { return gdp_delta(sensitivity / sigma, epsilon) <= delta; };
    // A thousand doublings spans the whole double range; leaving it means no σ can be found.
    constexpr int kMaxSteps = 1000;
    double lo = sensitivity;
    double hi = sensitivity;
    int steps = 0;
    if (holds(hi)) {
        while (holds(lo)) {
            lo *= 0.5;
            if (++steps > kMaxSteps || !std::isfinite(sensitivity / lo)) {
                throw RunError(
                    fmt::format("{}: the analytic Gaussian calibration found no lower bracket for epsilon = "
                                "{}, delta = {}, sensitivity = {}",
                                owner, epsilon, delta, sensitivity));
            }
        }
        hi = 2.0 * lo;
    } else {
        while (!holds(hi)) {
            hi *= 2.0;
            if (++steps > kMaxSteps || sensitivity / hi == 0.0) {
                throw RunError(
                    fmt::format("{}: the analytic Gaussian calibration found no σ meeting epsilon = {}, "
                                "delta = {}, sensitivity = {}",
                                owner, epsilon, delta, sensitivity));
            }
        }
        lo = 0.5 * hi;
    }
    const double sigma = smallest_satisfying(holds, lo, hi, 1e-13 * hi);
    return verified_sigma(epsilon, delta, sensitivity, sigma, owner);
}

}  // namespace dpbo
