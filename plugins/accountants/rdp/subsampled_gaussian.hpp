#pragma once
// The RDP curve and best (ε, order) of `steps` subsampled-Gaussian releases. (Calibration of σ is done
// by `dpbo account --calibrate-sigma` through the Accountant interface, apps/dpbo/noise_calibration.cpp.)
#include <cstddef>

#include "rdp_conversion.hpp"

namespace dpbo::rdp {

enum class Sampling { Poisson, WithoutReplacement };

// RDP at order α of `steps` compositions of the subsampled Gaussian (q, σ), upward-rounded.
double subsampled_gaussian_curve(Sampling sampling, double q, double sigma, std::size_t steps, double alpha);
// The best (ε, order) at δ over real orders α > 1 (without replacement: between integers by the
// interpolation of without_replacement.hpp).
OrderChoice subsampled_gaussian_epsilon(Sampling sampling, double q, double sigma, std::size_t steps, double delta,
                                        Conversion conversion);

}  // namespace dpbo::rdp
