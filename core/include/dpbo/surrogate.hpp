#pragma once
// Probabilistic models of the objective. Algorithms talk to the `gp` plugin (or any other
// surrogate) only through this interface. Inputs are whatever coordinates the algorithm chooses
// (the BO loops use the unit cube of the search space).
#include <string>

#include <armadillo>

#include "dpbo/module.hpp"

namespace dpbo {

class ExperimentRng;

struct Posterior {
    arma::vec mean;      // one entry per query point
    arma::vec variance;  // latent-function variance, without observation noise
};

struct PointPosterior {
    double mean = 0.0;
    double variance = 0.0;
    arma::rowvec mean_gradient;      // ∂m/∂x
    arma::rowvec variance_gradient;  // ∂v/∂x
};

class Surrogate : public Module {
public:
    ~Surrogate() override;
    static constexpr ModuleKind static_kind = ModuleKind::Surrogate;
    ModuleKind kind() const final { return static_kind; }

    // Replaces the data (rows of X, one target per row) and refactorises.
    virtual void condition(const arma::mat& points, const arma::vec& targets) = 0;
    // Adds points; implementations update their factorisation incrementally.
    virtual void append(const arma::mat& points, const arma::vec& targets) = 0;
    // Keeps only the first n points (undoes appends cheaply, e.g. after fantasised observations).
    virtual void truncate(std::size_t n) = 0;
    virtual std::size_t size() const = 0;
    virtual Posterior predict(const arma::mat& points) const = 0;
    // Refits hyperparameters when the surrogate's own schedule says so; returns whether it did.
    virtual bool refit_if_due(ExperimentRng& /*rng*/) { return false; }
    // One line for results: kernel, hyperparameters, noise.
    virtual std::string describe() const = 0;

    // Gradient information (GIBO, DP-GIBO, gradient-based acquisition optimisation). A surrogate
    // without it keeps these defaults, which refuse with a clear error.
    virtual bool provides_gradients() const { return false; }
    virtual PointPosterior predict_with_gradient(const arma::rowvec& point) const;
    virtual arma::vec mean_gradient(const arma::rowvec& point) const;
    // A (d × n) with ∇m(x) = A·(y − mean): per-record gradients of r target columns are A·Y.
    virtual arma::mat mean_gradient_weights(const arma::rowvec& point) const;
    virtual arma::mat gradient_covariance(const arma::rowvec& point) const;
    // Σ∇(x) after hypothetically adding noisy observations at the rows of `extra`.
    virtual arma::mat gradient_covariance_with(const arma::rowvec& point, const arma::mat& extra) const;
    // Tr Σ∇(x | D ∪ pending ∪ {c}) for every row c of `candidates`: GIBO's acquisition over a whole
    // sweep. The default calls gradient_covariance_with once per row; a GP shares the work on
    // D ∪ pending across the rows (one block update, one triangular solve for all candidates).
    virtual arma::vec gradient_trace_with_each(const arma::rowvec& point, const arma::mat& pending,
                                               const arma::mat& candidates) const;
    virtual arma::vec lengthscales() const;
};

}  // namespace dpbo
