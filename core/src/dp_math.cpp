#include "dpbo/dp_math.hpp"

#include <algorithm>
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

void require_finite_positive(const char* function, const char* name, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        throw ValidationError(fmt::format("{}: {} must be a finite number > 0, got {}", function,
                                          name, value));
    }
}

// The double-precision search can land on an ε whose true δ exceeds the target when the two terms
// of δ(ε) cancel (tiny μ or δ). Checked with the exact bound; if it fails, the search is redone on
// the bound, from the failed ε upwards, so the ε returned is one at which the bound holds.
double verified_epsilon(double mu, double delta, double epsilon) {
    const auto holds = [&](double e) { return gdp_delta_upper_bound(mu, e) <= delta; };
    if (holds(epsilon)) return epsilon;
    double lo = epsilon;
    double hi = std::max(2.0 * epsilon, std::numeric_limits<double>::min());
    while (!holds(hi)) {
        lo = hi;
        hi *= 2.0;
        if (hi > 1e300)
            throw RunError(fmt::format("gdp_epsilon: no epsilon reaches delta = {} for mu = {}", delta, mu));
    }
    return smallest_satisfying(holds, lo, hi, 1e-10 * hi);
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

double gdp_delta(double mu, double epsilon) {
    require_finite_positive("gdp_delta", "mu", mu);
    if (!std::isfinite(epsilon) || epsilon < 0.0) {
        throw ValidationError(
            fmt::format("gdp_delta: epsilon must be a finite number >= 0, got {}", epsilon));
    }
    const double upper = normal_cdf(-epsilon / mu + mu / 2.0);
    // e^ε Φ(·) in log space: e^ε alone overflows near ε = 710 while the product stays small.
    const double lower = std::exp(epsilon + log_normal_cdf(-epsilon / mu - mu / 2.0));
    const double delta = upper - lower;
    // The exact value is positive; a negative result is cancellation between two nearly equal
    // terms, so zero is the closest representable answer.
    return delta > 0.0 ? delta : 0.0;
}

double gdp_epsilon(double mu, double delta) {
    require_finite_positive("gdp_epsilon", "mu", mu);
    if (!std::isfinite(delta) || delta <= 0.0 || delta >= 1.0) {
        throw ValidationError(
            fmt::format("gdp_epsilon: delta must lie in the open interval (0, 1), got {}", delta));
    }
    const auto holds = [&](double epsilon) { return gdp_delta(mu, epsilon) <= delta; };
    if (holds(0.0)) return verified_epsilon(mu, delta, 0.0);

    double hi = 1.0;
    // δ(ε) decreases to 0, so doubling terminates; the cap only guards against a broken predicate.
    while (!holds(hi)) {
        hi *= 2.0;
        if (hi > 1e300) {
            throw RunError(fmt::format(
                "gdp_epsilon: no epsilon reaches delta = {} for mu = {}", delta, mu));
        }
    }
    // After doubling the answer lies in (hi/2, hi] (or (0, 1]), so this is ~1e-10 relative.
    const double epsilon = smallest_satisfying(holds, 0.0, hi, 1e-10 * hi);
    return verified_epsilon(mu, delta, epsilon);
}

double compose_gdp(const std::vector<double>& mus) {
    if (mus.empty()) {
        throw ValidationError("compose_gdp: nothing to compose (empty list of mu values)");
    }
    double largest = 0.0;
    for (std::size_t i = 0; i < mus.size(); ++i) {
        if (!std::isfinite(mus[i]) || mus[i] < 0.0) {
            throw ValidationError(fmt::format(
                "compose_gdp: mu[{}] must be a finite number >= 0, got {}", i, mus[i]));
        }
        largest = std::max(largest, mus[i]);
    }
    if (largest == 0.0) return 0.0;
    // Scaled by the largest entry so that squaring can neither overflow nor underflow.
    double sum_of_squares = 0.0;
    for (double mu : mus) {
        const double scaled = mu / largest;
        sum_of_squares += scaled * scaled;
    }
    return largest * std::sqrt(sum_of_squares);
}

double smallest_satisfying(const std::function<bool(double)>& holds, double lo, double hi,
                           double tolerance) {
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo > hi) {
        throw RunError(fmt::format("smallest_satisfying: invalid bracket [{}, {}]", lo, hi));
    }
    if (!std::isfinite(tolerance) || tolerance <= 0.0) {
        throw RunError(fmt::format("smallest_satisfying: tolerance must be > 0, got {}",
                                   tolerance));
    }
    if (!holds(hi)) {
        throw RunError(fmt::format(
            "smallest_satisfying: the condition does not hold at the upper end {} of [{}, {}]", hi,
            lo, hi));
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
