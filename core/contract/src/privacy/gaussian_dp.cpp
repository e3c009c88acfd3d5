#include "dpbo/privacy/gaussian_dp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/math/normal.hpp"

namespace dpbo {

namespace {

void require_finite_positive(const char* function, const char* name, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        throw ValidationError(fmt::format("{}: {} must be a finite number > 0, got {}", function, name, value));
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

double gdp_delta(double mu, double epsilon) {
    require_finite_positive("gdp_delta", "mu", mu);
    if (!std::isfinite(epsilon) || epsilon < 0.0) {
        throw ValidationError(fmt::format("gdp_delta: epsilon must be a finite number >= 0, got {}", epsilon));
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
        throw ValidationError(fmt::format("gdp_epsilon: delta must lie in the open interval (0, 1), got {}", delta));
    }
    const auto holds = [&](double epsilon) { return gdp_delta(mu, epsilon) <= delta; };
    if (holds(0.0)) return verified_epsilon(mu, delta, 0.0);

    double hi = 1.0;
    // δ(ε) decreases to 0, so doubling terminates; the cap only guards against a broken predicate.
    while (!holds(hi)) {
        hi *= 2.0;
        if (hi > 1e300) {
            throw RunError(fmt::format("gdp_epsilon: no epsilon reaches delta = {} for mu = {}", delta, mu));
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
            throw ValidationError(fmt::format("compose_gdp: mu[{}] must be a finite number >= 0, got {}", i, mus[i]));
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

}  // namespace dpbo
