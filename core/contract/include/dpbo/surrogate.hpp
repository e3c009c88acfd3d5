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

// The posterior of several independent outputs at m points: column j belongs to output j.
struct MultiPosterior {
    arma::mat mean;      // m × outputs
    arma::mat variance;  // m × outputs, latent-function variances, without observation noise
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
    // Refits hyperparameters when the surrogate's own schedule says so (each output on its own
    // schedule); returns whether any output was refitted.
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

    // Several independent outputs (DPareto models the privacy loss and the error of a point side
    // by side). Targets are n × k, one column per output, and each output is modelled on its own:
    // its own hyperparameters, standardisation and refit schedule. The single-output methods above
    // address output 0 (append() and condition() pass one column). A surrogate that models a single
    // output keeps these defaults, which accept exactly one column and refuse more.
    virtual std::size_t output_count() const { return 1; }
    // Replaces the data; the column count of `targets` sets the number of outputs.
    virtual void condition_outputs(const arma::mat& points, const arma::mat& targets);
    // Adds points with a value of every output; refuses a column count other than output_count()
    // once the surrogate holds data.
    virtual void append_outputs(const arma::mat& points, const arma::mat& targets);
    virtual MultiPosterior predict_outputs(const arma::mat& points) const;
};

}  // namespace dpbo
