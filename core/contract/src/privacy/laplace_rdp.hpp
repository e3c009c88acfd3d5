#pragma once
// The Laplace mechanism's RDP curve for LaplaceEvent's view (internal to libdpbo).

namespace dpbo::privacy {

// ε(α) of Laplace noise at Δ/b = `ratio`, order α > 1 (Mironov 2017, Prop. 6):
// 1/(α−1) · log( α/(2α−1) · e^{(α−1)r} + (α−1)/(2α−1) · e^{−αr} ), computed in MPFR at 256 bits and
// rounded upward, never below the true value.
double laplace_rdp_upper(double ratio, double alpha);

}  // namespace dpbo::privacy
