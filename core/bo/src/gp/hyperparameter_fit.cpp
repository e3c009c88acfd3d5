// Type-II maximum likelihood with NLopt's L-BFGS on log-hyperparameters. Each start runs until
// L-BFGS converges or its evaluation budget is spent; the best point seen by any start wins (kept
// here, not taken from NLopt's return, so a start that ends in a roundoff or failure code still
// counts what it found).
#include "dpbo/gp/hyperparameter_fit.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlopt.h>

#include "dpbo/errors.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/random.hpp"

namespace dpbo::gp {

namespace detail {
// Defined in gaussian_process.cpp: log p(y | X, θ) and its gradient at the GP's current kernel and
// noise values from one kernel pass, without touching the GP's factor; `storage` is reused across
// calls.
double log_marginal_likelihood_at_current(const GaussianProcess& gp, arma::vec* gradient,
                                          std::vector<arma::mat>& storage);
}  // namespace detail

namespace {

constexpr const char* kOwner = "hyperparameter fit";

// What a failed evaluation (factorisation breakdown, non-finite likelihood) reports to L-BFGS:
// far below any real log-likelihood, finite so the line search can still compare and backtrack.
constexpr double kFailedValue = -1e100;

struct Problem {
    Problem(GaussianProcess& model, std::size_t kernel_hyperparameters, bool fit_noise_variance)
        : gp(model), kernel_count(kernel_hyperparameters), fit_noise(fit_noise_variance) {}

    GaussianProcess& gp;
    std::size_t kernel_count;
    bool fit_noise;
    nlopt_opt optimiser = nullptr;
    std::size_t evaluations = 0;
    double best_value = -std::numeric_limits<double>::infinity();
    arma::vec best_point;
    std::exception_ptr unexpected;   // anything but a numerical failure stops the fit and is rethrown
    std::vector<arma::mat> storage;  // n × n matrices reused by every evaluation
};

double evaluate(unsigned count, const double* x, double* gradient, void* data) {
    auto& problem = *static_cast<Problem*>(data);
    ++problem.evaluations;
    if (gradient != nullptr) std::fill_n(gradient, count, 0.0);
    try {
        const arma::vec point(x, count);
        problem.gp.kernel().set_log_hyperparameters(point.head(problem.kernel_count));
        if (problem.fit_noise) problem.gp.set_noise_variance(std::exp(point[problem.kernel_count]));
        arma::vec full;
        const double value =
            detail::log_marginal_likelihood_at_current(problem.gp, gradient ? &full : nullptr, problem.storage);
        if (!std::isfinite(value)) return kFailedValue;
        if (gradient != nullptr) {
            if (!full.is_finite()) return kFailedValue;
            std::copy_n(full.memptr(), count, gradient);
        }
        if (value > problem.best_value) {
            problem.best_value = value;
            problem.best_point = point;
        }
        return value;
    } catch (const RunError&) {
        return kFailedValue;
    } catch (const ValidationError&) {
        // exp() of a bound can still overflow a derived quantity for extreme user bounds.
        return kFailedValue;
    } catch (...) {
        problem.unexpected = std::current_exception();
        nlopt_force_stop(problem.optimiser);
        return kFailedValue;
    }
}

struct Bounds {
    arma::vec lower;
    arma::vec upper;
};

void check_range(double lower, double upper, const char* name) {
    if (!(lower > 0.0) || !(upper > lower) || !std::isfinite(upper)) {
        throw ValidationError(fmt::format("{}: {} bounds [{}, {}] are not allowed; expected 0 < lower < upper < inf",
                                          kOwner, name, lower, upper));
    }
}

Bounds log_bounds(const Kernel& kernel, const FitSettings& settings) {
    check_range(settings.lengthscale_lower, settings.lengthscale_upper, "length-scale");
    check_range(settings.signal_variance_lower, settings.signal_variance_upper, "signal variance");
    if (settings.fit_noise) check_range(settings.noise_variance_lower, settings.noise_variance_upper, "noise variance");
    const std::vector<std::string> names = kernel.hyperparameter_names();
    const std::size_t count = names.size() + (settings.fit_noise ? 1 : 0);
    Bounds bounds{arma::vec(count), arma::vec(count)};
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string& name = names[i];
        if (name.starts_with("log_lengthscale")) {
            bounds.lower[i] = std::log(settings.lengthscale_lower);
            bounds.upper[i] = std::log(settings.lengthscale_upper);
        } else if (name == "log_signal_variance") {
            bounds.lower[i] = std::log(settings.signal_variance_lower);
            bounds.upper[i] = std::log(settings.signal_variance_upper);
        } else if (name == "log_offset") {
            // (xᵀy + c)^p = c^p (xᵀy/c + 1)^p: c is a squared length-scale of the inner product (its
            // scale c^p is the signal variance's business), so it gets the squared length-scale bounds.
            bounds.lower[i] = 2.0 * std::log(settings.lengthscale_lower);
            bounds.upper[i] = 2.0 * std::log(settings.lengthscale_upper);
        } else {
            throw RunError(fmt::format("{}: no bounds known for the kernel hyperparameter '{}'", kOwner, name));
        }
    }
    if (settings.fit_noise) {
        bounds.lower[names.size()] = std::log(settings.noise_variance_lower);
        bounds.upper[names.size()] = std::log(settings.noise_variance_upper);
    }
    return bounds;
}

// Restores the hyperparameters the fit started from (after a failure, so the caller's GP is left
// as it was given).
void restore(GaussianProcess& gp, const arma::vec& kernel_values, double noise_variance) {
    gp.kernel().set_log_hyperparameters(kernel_values);
    gp.set_noise_variance(noise_variance);
    try {
        gp.refactorise();
    } catch (const RunError&) {
        // It was factorised with these values before the fit; nothing better to restore.
    }
}

}  // namespace

FitResult fit_hyperparameters(GaussianProcess& gp, const FitSettings& settings, ExperimentRng& rng) {
    if (gp.size() == 0) throw RunError(fmt::format("{}: the Gaussian process holds no data to fit to", kOwner));
    if (settings.max_evaluations == 0) {
        throw ValidationError(fmt::format("{}: max_evaluations = 0 is not allowed; expected at least 1", kOwner));
    }
    const arma::vec initial_kernel = gp.kernel().log_hyperparameters();
    const double initial_noise = gp.noise_variance();
    const Bounds bounds = log_bounds(gp.kernel(), settings);
    const std::size_t count = bounds.lower.n_elem;

    Problem problem(gp, initial_kernel.n_elem, settings.fit_noise);
    nlopt_opt optimiser = nlopt_create(NLOPT_LD_LBFGS, static_cast<unsigned>(count));
    if (optimiser == nullptr) throw RunError(fmt::format("{}: NLopt could not create an L-BFGS optimiser", kOwner));
    problem.optimiser = optimiser;
    nlopt_set_lower_bounds(optimiser, bounds.lower.memptr());
    nlopt_set_upper_bounds(optimiser, bounds.upper.memptr());
    nlopt_set_max_objective(optimiser, &evaluate, &problem);
    nlopt_set_maxeval(optimiser, static_cast<int>(settings.max_evaluations));
    // The likelihood is O(n) in size; changes below 1e-8 of it do not move the hyperparameters in
    // any way a posterior could notice.
    nlopt_set_ftol_rel(optimiser, 1e-8);
    nlopt_set_xtol_rel(optimiser, 1e-6);

    arma::vec start(count);
    start.head(initial_kernel.n_elem) = initial_kernel;
    if (settings.fit_noise) start[initial_kernel.n_elem] = std::log(std::max(initial_noise, 1e-300));
    start = arma::min(arma::max(start, bounds.lower), bounds.upper);
    for (std::size_t attempt = 0; attempt <= settings.restarts; ++attempt) {
        if (attempt > 0) {
            for (std::size_t i = 0; i < count; ++i) {
                start[i] = bounds.lower[i] + rng.uniform() * (bounds.upper[i] - bounds.lower[i]);
            }
        }
        double value = 0.0;
        nlopt_optimize(optimiser, start.memptr(), &value);
        if (problem.unexpected) break;
    }
    nlopt_destroy(optimiser);

    if (problem.unexpected) {
        restore(gp, initial_kernel, initial_noise);
        std::rethrow_exception(problem.unexpected);
    }
    if (!std::isfinite(problem.best_value)) {
        restore(gp, initial_kernel, initial_noise);
        throw RunError(
            fmt::format("{}: no start gave a finite log marginal likelihood ({} evaluations from {} "
                        "starts); the data may hold duplicate points with too little noise",
                        kOwner, problem.evaluations, settings.restarts + 1));
    }
    gp.kernel().set_log_hyperparameters(problem.best_point.head(initial_kernel.n_elem));
    if (settings.fit_noise) gp.set_noise_variance(std::exp(problem.best_point[initial_kernel.n_elem]));
    gp.refactorise();

    FitResult result;
    result.log_marginal_likelihood = gp.log_marginal_likelihood();
    result.log_hyperparameters = gp.kernel().log_hyperparameters();
    result.noise_variance = gp.noise_variance();
    result.evaluations = problem.evaluations;
    return result;
}

}  // namespace dpbo::gp
