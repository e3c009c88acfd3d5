#pragma once
// The RDP curve and best (ε, order) of `steps` subsampled-Gaussian releases. (Calibration of σ is done
// by `dpbo account --calibrate-sigma` through the Accountant interface, apps/dpbo/noise_calibration.cpp.)
#include <cstddef>

#include "rdp_conversion.hpp"

namespace dpbo::rdp {

enum class Sampling { Poisson, WithoutReplacement };

// RDP at order α of `steps` compositions of the subsampled Gaussian (q, σ), upward-rounded.
double subsampled_gaussian_curve(Sampling sampling, double q, double sigma, std::size_t steps, double alpha);
// The best (ε, order) at δ over orders (real orders for Poisson, integer ≥ 2 for without replacement).
OrderChoice subsampled_gaussian_epsilon(Sampling sampling, double q, double sigma, std::size_t steps, double delta,
                                        Conversion conversion);

}  // namespace dpbo::rdp
