#pragma once
// The GP posterior over a finite candidate set Λ, updated one observation at a time in O(|Λ|·t):
// the t-th observation at candidate x adds the column v_t = Cov_{t−1}(Λ, x)/√(σ²_{t−1}(x) + σ²) of a
// pivoted-Cholesky-style factor V, and then
//   σ²_t = σ²_{t−1} − v_t²,   μ_t = μ_{t−1} + v_t·(y_t − μ_{t−1}(x))/√(σ²_{t−1}(x) + σ²)
// (sequential conditioning of a Gaussian; the GP posterior of Rasmussen & Williams 2006, ch. 2,
// computed without refactorising).
// T observations cost O(|Λ| T²) and hold |Λ|·T doubles, which Kusner et al.'s Algorithm 1 needs at
// |Λ| = 10⁴ (the whole posterior over Λ at every step). The prior mean is 0 (Algorithm 1, line 2).
#include <cstddef>

#include <armadillo>

#include "dpbo/gp/kernel.hpp"

namespace dpbo::dp_ucb {

class FiniteSetPosterior {
public:
    // `candidates`: |Λ| × d in the kernel's coordinates; `noise_variance`: σ² of the observations
    // (a numerical jitter for exact observations); room for `capacity` observations.
    FiniteSetPosterior(const arma::mat& candidates, const dpbo::gp::Kernel& kernel, double noise_variance,
                       std::size_t capacity);

    // Conditions on the value `value` observed at candidate `row`; returns the posterior variance
    // σ²_{t−1}(x) the candidate had before (what the information gain of that observation needs).
    double observe(std::size_t row, double value);
    // The same update without a value: the variance alone (for the information gain, which does
    // not depend on the values).
    double observe_variance_only(std::size_t row);

    const arma::vec& mean() const { return mean_; }          // μ_t over Λ
    const arma::vec& variance() const { return variance_; }  // σ²_t over Λ, clamped at 0
    std::size_t observations() const { return count_; }
    std::size_t size() const { return candidates_.n_rows; }

private:
    // Adds the factor column for candidate `row`; returns √(σ²_{t−1}(x) + σ²) and σ²_{t−1}(x).
    void add_column(std::size_t row, double& root, double& prior_variance);

    const arma::mat& candidates_;
    const dpbo::gp::Kernel& kernel_;
    double noise_variance_;
    arma::mat factor_;  // |Λ| × capacity: the columns v_1..v_t
    arma::vec mean_;
    arma::vec variance_;
    std::size_t count_ = 0;
};

}  // namespace dpbo::dp_ucb
