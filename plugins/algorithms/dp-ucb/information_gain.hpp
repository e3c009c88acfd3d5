#pragma once
// γ_T, the maximum information gain of T noisy observations over Λ (Srinivas et al. 2010, eq. 7):
// max over multisets A ⊆ Λ with |A| = T of ½ log det(I + σ⁻² K_A). Kusner et al.'s Algorithm 1
// (line 14) takes it as an input; we never ask the user for it. The information gain is monotone
// and submodular in the observations (Krause & Guestrin 2005), so the greedy choice — repeatedly
// observe the candidate of largest posterior variance, gaining ½ log(1 + σ⁻² σ²_{t−1}(x_t)) — is
// within a factor 1 − 1/e of the maximum (Nemhauser, Wolsey & Fisher 1978): greedy ≤ γ_T ≤
// greedy/(1 − 1/e). Both depend only on Λ, the kernel, σ and T, never on the data: they are public.
#include <cstddef>

#include <armadillo>

#include "dpbo/gp/kernel.hpp"

namespace dpbo::dp_ucb {

struct InformationGain {
    double greedy = 0.0;  // the greedy value, a lower bound on γ_T
    double bound = 0.0;   // greedy/(1 − 1/e), an upper bound on γ_T
};

// O(|Λ| T²) time, |Λ|·T doubles. Repeats are allowed (a noisy observation leaves variance behind),
// as GP-UCB may repeat a candidate. Ties go to the lowest row. noise_variance must be > 0.
InformationGain greedy_information_gain(const arma::mat& candidates, const dpbo::gp::Kernel& kernel,
                                        double noise_variance, std::size_t observations);

}  // namespace dpbo::dp_ucb
