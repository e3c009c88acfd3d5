#pragma once
// The radial profiles of the stationary kernels for every kernel matrix but the likelihood fit's
// (predictions, the GP's factor, gradients), vectorised with an exponential of our own that rounds
// alike on every instruction set (see prediction_profile.cpp).
#include <cstddef>

namespace dpbo::gp::detail {

// values[i] holds r² and becomes σ_f² φ(r²); slope[i], when slope is not null, becomes the slope
// s = −2 σ_f² dφ/d(r²) (see RadialProfile in kernel.cpp). `values` and `slope` must not overlap.
void squared_exponential_values(double* values, double* slope, std::size_t count, double variance);
void matern52_values(double* values, double* slope, std::size_t count, double variance);

// e^x as those profiles compute it, for one value (their tests compare it with the C library's).
double profile_exp(double x);

}  // namespace dpbo::gp::detail
