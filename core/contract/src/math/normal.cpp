#include "dpbo/math/normal.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

// Below this point Φ is computed from its asymptotic expansion. Down to here erfc is relatively
// accurate and far from underflow (Φ(−20) ≈ 2.8e−89); beyond it the series is accurate to machine
// precision within a dozen terms (term k is (2k−1)!!/x^{2k} ≤ 19!!/400^10 ≈ 6e−18 at k = 10).
constexpr double kAsymptoticBelow = -20.0;

// log Φ(x) for x < −20 from Φ(x) = φ(x)/|x| · Σ_k (−1)^k (2k−1)!!/x^{2k}. The series diverges, so
// summation stops once terms stop shrinking or no longer change the sum.
double log_normal_cdf_asymptotic(double x) {
    const double inverse_square = 1.0 / (x * x);
    double term = 1.0;
    double series = 1.0;
    for (int k = 1; k < 60; ++k) {
        const double next = -term * (2.0 * k - 1.0) * inverse_square;
        if (std::abs(next) >= std::abs(term)) break;
        term = next;
        const double updated = series + term;
        if (updated == series) break;
        series = updated;
    }
    const double log_sqrt_two_pi = 0.5 * std::log(2.0 * std::numbers::pi);
    return -0.5 * x * x - std::log(-x) - log_sqrt_two_pi + std::log(series);
}

}  // namespace

double normal_pdf(double x) { return std::exp(-0.5 * x * x) * std::numbers::inv_sqrtpi / std::numbers::sqrt2; }

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double log_normal_cdf(double x) {
    if (std::isnan(x)) return x;
    if (x > 0.0) {
        // Φ(x) = 1 − Φ(−x): log1p keeps the digits of the small upper-tail mass.
        return std::log1p(-0.5 * std::erfc(x / std::numbers::sqrt2));
    }
    if (x >= kAsymptoticBelow) return std::log(normal_cdf(x));
    if (std::isinf(x)) return -std::numeric_limits<double>::infinity();
    return log_normal_cdf_asymptotic(x);
}

double smallest_satisfying(const std::function<bool(double)>& holds, double lo, double hi, double tolerance) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) {
        throw RunError(fmt::format("smallest_satisfying: invalid bracket [{}, {}]", lo, hi));
    }
    if (!std::isfinite(tolerance) || tolerance <= 0.0) {
        throw RunError(fmt::format("smallest_satisfying: tolerance must be > 0, got {}", tolerance));
    }
    if (!holds(hi)) {
        throw RunError(fmt::format("smallest_satisfying: the condition does not hold at the upper end {} of [{}, {}]",
                                   hi, lo, hi));
    }
    if (holds(lo)) return lo;
    // Invariant: !holds(lo) and holds(hi); hi is what is returned.
    while (hi - lo > tolerance) {
        const double mid = lo + 0.5 * (hi - lo);
        // Adjacent doubles: the tolerance is finer than the floating-point grid here.
        if (mid <= lo || mid >= hi) break;
        if (holds(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    return hi;
}

}  // namespace dpbo
