#include "kusner_constants.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace dpbo::dp_ucb {

double beta(std::size_t t, std::size_t candidates, double delta) {
    // Summed logarithms: |Λ| t² π² can overflow nothing this way, and 1/δ stays exact in log δ.
    const double tt = static_cast<double>(t);
    return 2.0 * (std::log(static_cast<double>(candidates)) + 2.0 * std::log(tt) + 2.0 * std::log(std::numbers::pi) -
                  std::log(3.0) - std::log(delta));
}

namespace {
// log(a/δ), also when a/δ overflows (δ = 1e-308 made every sensitivity inf); the direct quotient
// otherwise, so the usual values are unchanged to the last bit.
double log_ratio(double a, double delta) {
    const double ratio = a / delta;
    return std::isfinite(ratio) ? std::log(ratio) : std::log(a) - std::log(delta);
}
}  // namespace

double c_noisy(double one_minus_k1, std::size_t candidates, double delta) {
    return 2.0 * std::sqrt(one_minus_k1 * log_ratio(3.0 * static_cast<double>(candidates), delta));
}

double q_noise(double sigma, double delta) { return sigma * std::sqrt(8.0 * log_ratio(3.0, delta)); }

double c1(double sigma) { return 8.0 / std::log1p(1.0 / (sigma * sigma)); }

double quality_sensitivity(std::size_t budget, std::size_t candidates, double delta, double c) {
    return 2.0 * std::sqrt(beta(budget + 1, candidates, delta)) + c;
}

double regret_term(double c1_value, double beta_T, double gamma_T, std::size_t budget) {
    return std::sqrt(c1_value * beta_T * gamma_T / static_cast<double>(budget));
}

double c_noise_free(double one_minus_k1, std::size_t candidates, double delta) {
    return 2.0 * std::sqrt(one_minus_k1 * log_ratio(2.0 * static_cast<double>(candidates), delta));
}

double noise_free_regret_term(double a, double tau, std::size_t budget, std::size_t dim) {
    const double t = static_cast<double>(budget);
    return a * std::exp(-t * tau / std::pow(std::log(t), static_cast<double>(dim) / 4.0));
}

double lipschitz_sensitivity(double lipschitz, double gain_bound, double validation_records, double lambda_min,
                             double lambda_max) {
    return std::min(gain_bound / validation_records, lipschitz / (validation_records * lambda_min)) +
           (lambda_max - lambda_min) * lipschitz / (lambda_max * lambda_min);
}

}  // namespace dpbo::dp_ucb
