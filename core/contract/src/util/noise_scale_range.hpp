#pragma once
// The noise scales the secure sampling layer can draw at (dpbo::privacy::release_grid refuses the
// others), so that a module refusing a calibration can say which values of the keys the user set
// are allowed — mu, epsilon, clipping_bound, value_sensitivity — instead of naming only the derived
// σ or b. Found by asking release_grid itself, so the range cannot drift from the sampler's.
// Header-only, shared like memory_bound.hpp (CMake target dpbo_memory_bound) without entering the
// installed plugin contract.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::privacy {

struct NoiseScaleRange {
    double lowest = 0.0;   // the smallest power of two release_grid accepts
    double highest = 0.0;  // the largest one
    bool contains(double scale) const { return scale >= lowest && scale <= highest; }
};

inline NoiseScaleRange secure_noise_scale_range() {
    const auto accepted = [](int exponent) {
        try {
            (void)release_grid(std::ldexp(1.0, exponent));
            return true;
        } catch (const ValidationError&) {
            return false;
        }
    };
    // The accepted exponents are one interval around 0: bisect each of its ends.
    int rejected = -1074, fine = 0;
    while (fine - rejected > 1) {
        const int mid = rejected + (fine - rejected) / 2;
        (accepted(mid) ? fine : rejected) = mid;
    }
    const int low = fine;
    fine = 0;
    rejected = 1024;
    while (rejected - fine > 1) {
        const int mid = fine + (rejected - fine) / 2;
        (accepted(mid) ? fine : rejected) = mid;
    }
    return {std::ldexp(1.0, low), std::ldexp(1.0, fine)};
}

// "[lo, hi]" for an allowed range of a positive key, "(0, hi]" when lo underflowed to 0 and
// "[lo, inf)" when hi overflowed.
inline std::string allowed_interval(double lo, double hi) {
    return fmt::format("{}{:.6g}, {}", lo > 0.0 ? "[" : "(", lo,
                       std::isfinite(hi) ? fmt::format("{:.6g}]", hi) : "inf)");
}

}  // namespace dpbo::privacy
