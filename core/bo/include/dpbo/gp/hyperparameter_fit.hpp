#pragma once
// Type-II maximum likelihood: maximise log p(y | X, θ) over log-hyperparameters with NLopt's
// L-BFGS and analytic gradients, inside bounds, from the current values and a few random restarts.
#include <cstddef>

#include <armadillo>

namespace dpbo {
class ExperimentRng;
}

namespace dpbo::gp {

class GaussianProcess;

struct FitSettings {
    std::size_t restarts = 2;           // random starts besides the current hyperparameters
    std::size_t max_evaluations = 200;  // per start
    bool fit_noise = true;
    // Bounds in natural units; inputs are expected in the unit cube, targets standardised.
    double lengthscale_lower = 1e-2, lengthscale_upper = 1e2;
    double signal_variance_lower = 1e-3, signal_variance_upper = 1e3;
    double noise_variance_lower = 1e-8, noise_variance_upper = 1.0;
};

struct FitResult {
    double log_marginal_likelihood = 0.0;
    arma::vec log_hyperparameters;  // the kernel's, at the optimum
    double noise_variance = 0.0;
    std::size_t evaluations = 0;
};

// Leaves `gp` factorised at the best hyperparameters found. Throws RunError when no start yields a
// finite likelihood.
FitResult fit_hyperparameters(GaussianProcess& gp, const FitSettings& settings, ExperimentRng& rng);

}  // namespace dpbo::gp
