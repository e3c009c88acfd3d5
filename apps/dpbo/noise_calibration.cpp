#include "noise_calibration.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {
// The search's upper end: σ = 10⁶ is far past any useful noise multiplier (ε ~ 1e-9 for a usual event).
constexpr double kLargestSigma = 1e6;
}  // namespace

SigmaCalibration calibrate_sigma(const std::function<std::unique_ptr<Accountant>()>& fresh,
                                 const SubsampledGaussianEvent& event, double target_epsilon, double delta) {
    auto epsilon = [&](double sigma) {
        SubsampledGaussianEvent e = event;
        e.noise_multiplier = sigma;
        auto accountant = fresh();
        accountant->compose(PrivacyEvent{e});
        return accountant->epsilon_for_delta(delta);
    };
    // ε decreases in σ: when the largest σ searched misses the target, every σ does. Checked first, so
    // an unreachable target (--epsilon 1e-300) costs one evaluation instead of a doubling search.
    const double at_largest = epsilon(kLargestSigma);
    if (!(at_largest <= target_epsilon)) {
        throw ValidationError(fmt::format(
            "--calibrate-sigma: --epsilon {} is not reachable: even the largest noise multiplier searched, sigma = "
            "{:g}, gives epsilon = {:.6g} at --delta {}; allowed: --epsilon >= {:.6g} for this event",
            target_epsilon, kLargestSigma, at_largest, delta, at_largest));
    }
    double hi = 1.0, at_hi = epsilon(hi);
    while (at_hi > target_epsilon) {  // at most log2(kLargestSigma) doublings
        hi = std::min(2.0 * hi, kLargestSigma);
        at_hi = hi == kLargestSigma ? at_largest : epsilon(hi);
    }
    double lo = hi / 2.0;
    // Invariant ε(hi) ≤ target; move lo down until it misses the target (or σ is negligible).
    for (double at_lo = epsilon(lo); at_lo <= target_epsilon; at_lo = epsilon(lo)) {
        hi = lo;
        at_hi = at_lo;
        lo /= 2.0;
        if (lo < 1e-4) break;
    }
    while (hi - lo > 1e-6 * hi) {
        const double mid = 0.5 * (lo + hi);
        const double at_mid = epsilon(mid);
        if (at_mid <= target_epsilon) {
            hi = mid;
            at_hi = at_mid;
        } else {
            lo = mid;
        }
    }
    return {hi, at_hi};
}

}  // namespace dpbo::cli
