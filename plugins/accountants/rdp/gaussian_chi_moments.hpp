#pragma once
// The Gaussian mechanism's Pearson–Vajda moments E_{μ0}[(L − 1)^ℓ], L the likelihood ratio of
// N(Δ, σ²Δ²) against N(0, σ²Δ²), for even ℓ: the quantities Theorem 27 of Wang, Balle &
// Kasiviswanathan 2019 bounds the without-replacement terms with. With h(i) = E[L^i] =
// e^{i(i−1)/(2σ²)} (Mironov 2017, Prop. 7) the binomial expansion gives the ℓ-th forward difference
//   B(ℓ) = E[(L − 1)^ℓ] = Σ_{i=0}^{ℓ} (−1)^{ℓ−i} C(ℓ,i) h(i) = Δ^ℓ h(0),
// positive for even ℓ. The sum cancels catastrophically for large σ (B(ℓ) ~ σ^{−ℓ} while its terms are
// ~2^ℓ), so it is formed in MPFR with a running bound on its rounding error, and the precision is
// doubled until the bound certifies every value: what is returned is never below the exact moment.
#include <cstddef>
#include <memory>
#include <vector>

namespace dpbo::rdp {

class GaussianChiMoments {
public:
    // The largest order ℓ held: Theorem 27 is evaluated for orders α ≤ kLargestOrder (as dp_accounting
    // does), whose terms need B(ℓ) for even ℓ ≤ α + 1.
    static constexpr std::size_t kLargestOrder = 256;

    // Upper bounds (rounded up to double) on log B(ℓ) for even ℓ = 0, 2, …, kLargestOrder; +∞ for an
    // order whose moment overflows a double's exponent range (σ below about 1e-150), where the caller
    // keeps Theorem 9's term instead.
    explicit GaussianChiMoments(double sigma);
    double log_moment(std::size_t even_order) const { return log_moments_[even_order / 2]; }
    // The MPFR precision the certification needed (for the tests: large σ cancels more).
    long precision_bits() const { return precision_bits_; }

private:
    std::vector<double> log_moments_;
    long precision_bits_ = 0;
};

// The moments of one σ, computed once and shared: the order search evaluates many orders of the same
// σ, and a calibration a few dozen σ. Thread-safe; keeps the last few σ.
std::shared_ptr<const GaussianChiMoments> gaussian_chi_moments(double sigma);

}  // namespace dpbo::rdp
