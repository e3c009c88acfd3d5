#pragma once
// The stationary kernels' loops over many entries, vectorised so that they round alike on every
// instruction set (kernel_lanes.cpp): squared distances from the differences themselves, the radial
// profiles with an exponential of our own, and both fused for a kernel matrix against many queries.
// Every kernel matrix but the likelihood fit's uses them (predictions, the GP's factor, gradients).
#include <cstddef>

namespace dpbo::gp::detail {

enum class ProfileFamily { SquaredExponential, Matern52 };

// out[i + j·rows] ← Σ_k (a[i + k·rows] − b[k + j·dims])² for i < rows, j < columns: `a` holds one
// point per row (rows × dims, column-major), `b` one point per column (dims × columns), both already
// divided by the length-scales. Each entry is summed over k in order.
void squared_distances_by_differences(const double* a, std::size_t rows, const double* b, std::size_t columns,
                                      std::size_t dims, double* out);

// values[i] holds r² and becomes σ_f² φ(r²); slope[i], when slope is not null, becomes the slope
// s = −2 σ_f² dφ/d(r²) (see RadialProfile in kernel.cpp). `values` and `slope` must not overlap.
void profile_values(ProfileFamily family, double* values, double* slope, std::size_t count, double variance);

// out ← σ_f² φ(r²) for the r² of squared_distances_by_differences, in one pass: the same bits as
// the two calls, without writing and reading r² back.
void kernel_values_by_differences(ProfileFamily family, double variance, const double* a, std::size_t rows,
                                  const double* b, std::size_t columns, std::size_t dims, double* out);

// e^x as the profiles compute it, for one value (their tests compare it with the C library's).
double profile_exp(double x);

}  // namespace dpbo::gp::detail
