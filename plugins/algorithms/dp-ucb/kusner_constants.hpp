#pragma once
// The constants of Kusner, Gardner, Garnett & Weinberger (2015), "Differentially private Bayesian
// optimization" (ICML), each named by the line of the paper's algorithm that defines it. Pure
// functions of public inputs (|Λ|, δ, σ, T, 1 − k₁, ...): none reads the data.
#include <cstddef>

namespace dpbo::dp_ucb {

// Algorithm 1, line 4: β_t = 2 log(|Λ| t² π² / (3δ)).
double beta(std::size_t t, std::size_t candidates, double delta);
// Algorithm 1, line 9 (Theorem 1's σ₁√(2 log(3|Λ|/δ)) with σ₁ = √(2(1 − k₁))):
// c = 2 √((1 − k₁(V, V′)) log(3|Λ|/δ)).
double c_noisy(double one_minus_k1, std::size_t candidates, double delta);
// Algorithm 1, line 10: q = σ √(8 log(3/δ)).
double q_noise(double sigma, double delta);
// Algorithm 1, line 11: C₁ = 8 / log(1 + σ⁻²).
double c1(double sigma);
// Algorithm 1, line 12 (Theorem 1): the sensitivity of the quality μ_T, 2√β_{T+1} + c.
double quality_sensitivity(std::size_t budget, std::size_t candidates, double delta, double c);
// Algorithm 1, line 14 (Theorem 3): the first term of the Laplace sensitivity, √(C₁ β_T γ_T / T);
// divided by ε it is the scale's term √(C₁ β_T γ_T)/(ε√T).
double regret_term(double c1_value, double beta_T, double gamma_T, std::size_t budget);
// Algorithm 2, line 3: c = 2 √((1 − k₁(V, V′)) log(2|Λ|/δ)).
double c_noise_free(double one_minus_k1, std::size_t candidates, double delta);
// Algorithm 2, line 4 (Theorem 5): A·exp(−Tτ/(log T)^{d/4}), the de Freitas et al. (2012) regret
// bound that covers f(λ_T) − f(λ*); divided by ε it is the scale's first term.
double noise_free_regret_term(double a, double tau, std::size_t budget, std::size_t dim);
// Algorithm 3, line 5 (Theorem 7): min{g*/m, L/(m λ_min)} + (λ_max − λ_min)L/(λ_max λ_min); divided
// by ε it is the Laplace scale.
double lipschitz_sensitivity(double lipschitz, double gain_bound, double validation_records, double lambda_min,
                             double lambda_max);

}  // namespace dpbo::dp_ucb
