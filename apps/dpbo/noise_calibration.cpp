#include "noise_calibration.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::cli {

SigmaCalibration calibrate_sigma(const std::function<std::unique_ptr<Accountant>()>& fresh,
                                 const SubsampledGaussianEvent& event, double target_epsilon, double delta) {
    auto epsilon = [&](double sigma) {
        SubsampledGaussianEvent e = event;
        e.noise_multiplier = sigma;
        auto accountant = fresh();
        accountant->compose(PrivacyEvent{e});
        return accountant->epsilon_for_delta(delta);
    };
    double hi = 1.0, at_hi = epsilon(hi);
    while (at_hi > target_epsilon) {
        hi *= 2.0;
        if (hi > 1e6)
            throw ValidationError(
                fmt::format("--calibrate-sigma: no noise multiplier up to 1e6 reaches --epsilon {}", target_epsilon));
        at_hi = epsilon(hi);
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
