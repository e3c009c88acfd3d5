#pragma once
// Exact GP regression on a Cholesky factor that grows by block updates: appending k points costs
// O(n²k); a full factorisation happens only when the hyperparameters change. Never forms an
// inverse. Serves every algorithm through the `gp` surrogate plugin and directly in benchmarks.
#include <memory>

#include <armadillo>

#include "dpbo/gp/kernel.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo::gp {

enum class MeanFunction { Zero, Constant };  // Constant: the mean of the targets

struct GpSettings {
    // σ² of the observations, in the units the GP models: those of the centred and (when
    // `standardise`) scaled targets, so appends never refactorise when the scale moves.
    double noise_variance = 1e-6;
    MeanFunction mean = MeanFunction::Zero;
    bool standardise = false;  // divide targets by their standard deviation
    // Jitter escalation: try 0, then jitter_start·mean(diag K), ×10 each time up to jitter_max·mean(diag K).
    double jitter_start = 1e-10;
    double jitter_max = 1e-4;
};

class GaussianProcess {
public:
    GaussianProcess(std::unique_ptr<Kernel> kernel, GpSettings settings);
    GaussianProcess(const GaussianProcess& other);
    GaussianProcess& operator=(const GaussianProcess& other);
    GaussianProcess(GaussianProcess&&) noexcept;
    GaussianProcess& operator=(GaussianProcess&&) noexcept;
    ~GaussianProcess();

    // Replaces the data and factorises. Throws ValidationError naming the first NaN/inf target
    // and its point; RunError naming the likely cause (duplicate points, a vanishing length-scale)
    // when the matrix cannot be factorised even with the largest jitter.
    void condition(const arma::mat& points, const arma::vec& targets);
    // Adds points by a block Cholesky update (O(n²k)); same checks.
    void append(const arma::mat& points, const arma::vec& targets);
    // Keeps the first n points: the leading block of the factor, no refactorisation.
    void truncate(std::size_t n);
    // Refactorises after a hyperparameter change.
    void refactorise();

    std::size_t size() const;
    std::size_t dim() const;
    const arma::mat& points() const;
    const arma::vec& targets() const;
    const Kernel& kernel() const;
    Kernel& kernel();
    const GpSettings& settings() const;
    void set_noise_variance(double variance);  // call refactorise() afterwards
    double noise_variance() const;
    double jitter() const;

    // Batch posterior of the latent function (BLAS-3: one triangular solve for all points). It
    // brings a cache of the posterior at the last sweep of query points up to date, so one GP must
    // not be predicted from two threads at once.
    Posterior predict(const arma::mat& points) const;
    struct PointPrediction {
        double mean = 0.0;
        double variance = 0.0;
        arma::rowvec mean_gradient;
        arma::rowvec variance_gradient;
    };
    PointPrediction predict_with_gradient(const arma::rowvec& x) const;

    // ∇m(x) (d).
    arma::vec mean_gradient(const arma::rowvec& x) const;
    // A = ∇k(x, D)(K + σ²I)⁻¹ (d × n): ∇m(x) = A (y − mean); for per-record targets Y (n × r),
    // all r gradients are one product A·Y.
    arma::mat mean_gradient_weights(const arma::rowvec& x) const;
    // Σ∇(x) = ∇k∇ᵀ(x, x) − ∇k(x, D)(K + σ²I)⁻¹ k(D, x)∇ᵀ (d × d).
    arma::mat gradient_covariance(const arma::rowvec& x) const;
    // Σ∇(x) as if `extra` (noisy observations at those rows) were added: a block update of the
    // factor, not a refit; values at `extra` are never needed.
    arma::mat gradient_covariance_with(const arma::rowvec& x, const arma::mat& extra) const;
    // Tr Σ∇(x | D ∪ pending ∪ {c}) for every row c of `candidates`, sharing the work on D ∪ pending:
    // O(n²(d + p + m)) for m candidates instead of O(n²(d + p)) per candidate.
    arma::vec gradient_trace_with_each(const arma::rowvec& x, const arma::mat& pending,
                                       const arma::mat& candidates) const;

    // (K + σ²I)⁻¹ rhs by two triangular solves.
    arma::mat solve(const arma::mat& rhs) const;
    // log p(y | X, θ) of the (centred, standardised) targets, and its gradient with respect to
    // [kernel log-hyperparameters..., log σ²].
    double log_marginal_likelihood() const;
    arma::vec log_marginal_likelihood_gradient() const;

    // The mean and scale applied to targets (0 and 1 unless Constant / standardise).
    double target_offset() const;
    double target_scale() const;

private:
    // The data, the Cholesky factor, its weights and the query cache live in
    // core/bo/src/gp/gaussian_process.cpp: they change with the implementation, and a plugin that saw
    // their layout would have to be rebuilt for every such change.
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace dpbo::gp
