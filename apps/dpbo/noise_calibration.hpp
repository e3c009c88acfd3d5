#pragma once
// `dpbo account --calibrate-sigma`: the smallest noise multiplier of one subsampled-Gaussian event
// whose ε at δ, under a given accountant, does not exceed a target.
#include <functional>
#include <memory>

#include "dpbo/accountant.hpp"

namespace dpbo::cli {

struct SigmaCalibration {
    double sigma = 0.0;
    double epsilon = 0.0;  // ε at δ of the returned σ, ≤ the target
};

// Bisection on σ (ε decreases in σ): a bracket [lo, hi] is doubled from σ = 1 until ε(hi) ≤ target,
// then halved to a relative width of 1e-6. The answer is always the upper end, whose ε has been
// computed and checked ≤ target, so it never exceeds the target. `fresh` makes a new accountant.
// Throws ValidationError, naming --epsilon and the smallest ε reachable, when ε(10⁶) misses the
// target — checked before the search. At most about 60 evaluations of ε in all (20 doublings, 14
// halvings of the lower end down to 1e-4, 20 bisections).
SigmaCalibration calibrate_sigma(const std::function<std::unique_ptr<Accountant>()>& fresh,
                                 const SubsampledGaussianEvent& event, double target_epsilon, double delta);

}  // namespace dpbo::cli
