#pragma once
// RDP of the subsampled Gaussian with fixed-size batches drawn without replacement at rate γ = m/n,
// replace-one neighbours, σ the noise multiplier relative to the replace-one sensitivity (noise σ·Δ,
// Δ = 2C for a sum of per-record vectors clipped to C). Upper bounds, never below the exact value.
namespace dpbo::rdp {

// Integer α ≥ 2. γ = 1 is no subsampling at all: the plain Gaussian, α/(2σ²). For γ < 1 the bound of
// Wang, Balle & Kasiviswanathan 2019 (arXiv 1808.00087):
//   ε(α) ≤ log(1 + Σ_{j=2}^{α} T_j)/(α − 1),
//   T_2 = γ² C(α,2) min{4(e^{ε(2)} − 1), 2e^{ε(2)}}                                    (Thm. 9),
//   T_j = γ^j C(α,j) min{4·√(B(2⌊j/2⌋)·B(2⌈j/2⌉)), 2e^{(j−1)ε(j)}}, j ≥ 3      (Thm. 27 and Thm. 9),
// with ε(j) = j/(2σ²) and B(ℓ) = E[(L − 1)^ℓ] the Gaussian's Pearson–Vajda moments
// (gaussian_chi_moments.hpp). Theorem 27's term is used for α ≤ 256, as dp_accounting does; beyond,
// Theorem 9's alone. Evaluated in double with a certified error bound, in MPFR where it cannot certify.
double without_replacement_rdp_integer_order(double gamma, double sigma, unsigned long alpha);

// Every real α > 1: at integers as above; between them the linear interpolation of the bounds on
// the cumulant K(α) = (α − 1)·ε(α), which is convex in α (Van Erven & Harremoës 2014; Wang, Balle &
// Kasiviswanathan 2019, Cor. 10), with K(1) = 0: still an upper bound, and what dp_accounting
// evaluates at its fractional orders.
double without_replacement_rdp(double gamma, double sigma, double alpha);

// The same integer-order bound evaluated in MPFR only (the fallback; exposed for the tests).
double without_replacement_rdp_integer_order_mpfr(double gamma, double sigma, unsigned long alpha);

}  // namespace dpbo::rdp
