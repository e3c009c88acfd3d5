#pragma once
// The radial profiles of the stationary kernels over arrays of squared distances, for the likelihood
// fit's Gram matrices. They live in their own translation unit, built so that the compiler
// vectorises them, exp included (see radial_profile.cpp).
#include <cstddef>

namespace dpbo::gp::detail {

// values[i] holds r² and becomes σ_f² φ(r²); slope[i], when slope is not null, becomes the slope
// s = −2 σ_f² dφ/d(r²) (see RadialProfile in kernel.cpp). `values` and `slope` must not overlap.
void squared_exponential_profile(double* values, double* slope, std::size_t count, double variance);
void matern52_profile(double* values, double* slope, std::size_t count, double variance);

}  // namespace dpbo::gp::detail
