#pragma once
// Linear convolution of probability vectors by FFT (FFTW): what composing two privacy-loss
// distributions on one grid costs, O(n log n) instead of the O(n²) of the direct sum.
#include <cstddef>
#include <vector>

namespace dpbo::pld {

// (a * b)[k] = Σ_i a[i]·b[k−i], of length a.size() + b.size() − 1. Entries carry the FFT's rounding
// (about 1e-16 of the largest), so callers clip them (truncate_tails).
std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b);
// Entries first … last of the `times`-fold convolution a * a * … * a: one forward transform of a
// length holding the window, the spectrum raised to the power `times` by repeated squaring, one
// inverse transform. Mass of the full convolution outside the window wraps around into it (the
// transform is circular): callers choose a window outside which that mass is negligible and
// account for it (self_compose).
std::vector<double> self_convolve_window(const std::vector<double>& a, std::size_t times, std::size_t first,
                                         std::size_t last);

}  // namespace dpbo::pld
