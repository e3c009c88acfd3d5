#pragma once
// Rényi differential privacy (Mironov 2017) of single mechanisms, as upper bounds in double that are
// never below the exact value: every result is computed in MPFR and rounded upward (mpfr_number.hpp).
// ε(α) denotes the order-α RDP of one release; orders α > 1 unless a function says otherwise.
#include <cstddef>

namespace dpbo::rdp {

// Gaussian mechanism, noise σ on a query of L2 sensitivity Δ: ε(α) = α Δ² / (2σ²)
// (Mironov 2017, Prop. 7). `ratio` = Δ/σ; valid for every α > 0.
double gaussian_rdp(double ratio, double alpha);

// Laplace mechanism, scale b on a query of L1 sensitivity Δ, λ = b/Δ (Mironov 2017, Prop. 6 / Table II):
// ε(α) = 1/(α−1) · log( α/(2α−1) · e^{(α−1)/λ} + (α−1)/(2α−1) · e^{−α/λ} ) for α > 1,
// ε(1) = 1/λ + e^{−1/λ} − 1 (the KL limit). `ratio` = Δ/b = 1/λ; α ≥ 1.
double laplace_rdp(double ratio, double alpha);

// Poisson-subsampled Gaussian (each record included independently with probability q; noise
// multiplier σ; add/remove-one neighbours), exact (Mironov, Talwar & Zhang 2019, Sec. 3.3):
// ε(α) = log(A_α)/(α−1). Integer α: the binomial expansion (its negligible terms bounded, not
// summed); fractional α: the two-series formula, or the Jensen bound below where it is the smaller or
// the series cannot be summed.
double poisson_subsampled_gaussian_rdp(double q, double sigma, double alpha);
// The two pieces, exposed for the tests (α integer ≥ 2 / α > 1 real, respectively). The integer order
// is summed in double with a certified error bound (certified_log_sum.hpp) when that bound is within
// 1e-10 of the value, and in MPFR otherwise (the `_mpfr` one, exposed for the tests).
double poisson_rdp_integer_order(double q, double sigma, unsigned long alpha);
double poisson_rdp_integer_order_mpfr(double q, double sigma, unsigned long alpha);
double poisson_rdp_fractional_order(double q, double sigma, double alpha);
// The fractional order with the series in MPFR only (the fallback; exposed for the tests).
double poisson_rdp_fractional_order_mpfr(double q, double sigma, double alpha);
// A closed-form upper bound for every real α > 1, by convexity (Jensen):
// ε(α) ≤ log(1 + q·expm1(α(α−1)/(2σ²)))/(α−1). Within log(1/q) of the exact value when σ is small,
// where the fractional series cannot be summed in MPFR's range; used there and as a cap.
double poisson_rdp_jensen_bound(double q, double sigma, double alpha);

// Subsampled Gaussian with fixed-size batches drawn without replacement at rate γ = m/n < 1, replace-one
// neighbours: the upper bound of Wang, Balle & Kasiviswanathan 2019, Thm. 9, for integer α ≥ 2, with
// the Gaussian's ε(j) = j/(2σ²) and ε(∞) = ∞, in MPFR (its terms beyond a window bounded, not summed).
// The accountant's without-replacement RDP (without_replacement.hpp) takes the tighter Theorem 27 for
// α ≤ 256 and this beyond, in double where certified.
double without_replacement_theorem9_rdp_mpfr(double gamma, double sigma, unsigned long alpha);

}  // namespace dpbo::rdp
