#pragma once
// Exact GP regression on a Cholesky factor that grows by block updates: appending k points costs
// O(n²k); a full factorisation happens only when the hyperparameters change. Never forms an
// inverse. Serves every algorithm through the `gp` surrogate plugin and directly in benchmarks.
#include <cstdint>
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
    bool standardise = false;               // divide targets by their standard deviation
    // Jitter escalation: try 0, then jitter_start·mean(diag K), ×10 each time up to jitter_max·mean(diag K).
    double jitter_start = 1e-10;
    double jitter_max = 1e-4;
};

class GaussianProcess {
public:
    GaussianProcess(std::unique_ptr<Kernel> kernel, GpSettings settings);
    GaussianProcess(const GaussianProcess& other);
    GaussianProcess& operator=(const GaussianProcess& other);
    GaussianProcess(GaussianProcess&&) noexcept = default;
    GaussianProcess& operator=(GaussianProcess&&) noexcept = default;
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

    std::size_t size() const { return points_.n_rows; }
    std::size_t dim() const { return kernel_->dim(); }
    const arma::mat& points() const { return points_; }
    const arma::vec& targets() const { return targets_; }
    const Kernel& kernel() const { return *kernel_; }
    Kernel& kernel() { return *kernel_; }
    const GpSettings& settings() const { return settings_; }
    void set_noise_variance(double variance);  // call refactorise() afterwards
    double noise_variance() const { return settings_.noise_variance; }
    double jitter() const { return jitter_; }

    // Batch posterior of the latent function (BLAS-3: one triangular solve for all points).
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
    double target_offset() const { return offset_; }
    double target_scale() const { return scale_; }

private:
    // The posterior at one remembered set of query points (the sweep a BO loop scores every
    // iteration) is brought up to date in O(n·m) per appended point instead of recomputed in
    // O(n²·m): V = L⁻¹K(D, Q) only gains rows when the factor gains rows. The cache makes predict()
    // mutate state: one GP must not be predicted from two threads at once.
    // Stored transposed (one column per data point, spare columns after `rows`) so that a new
    // point is one column written in place, never a copy of the whole cache.
    struct QueryCache {
        arma::mat points;        // m × d, compared bit for bit
        arma::mat cross_t;       // m × capacity: K(Q, D) in its first `rows` columns
        arma::mat solved_t;      // m × capacity: (L⁻¹ K(D, Q))ᵀ in its first `rows` columns
        arma::vec prior;         // k(q, q)
        arma::vec explained;     // row sums of solved_t², over the first `rows` columns
        std::size_t rows = 0;
        std::uint64_t epoch = 0;
    };
    static constexpr std::size_t kMinimumCachedQueries = 32;  // single points never evict the sweep

    bool cached_prediction(const arma::mat& points, Posterior& posterior) const;
    void factorise();
    void update_weights();
    void check_targets(const arma::mat& points, const arma::vec& targets) const;

    std::unique_ptr<Kernel> kernel_;
    GpSettings settings_;
    arma::mat points_;
    arma::vec targets_;
    arma::mat chol_;      // lower-triangular L with L Lᵀ = K + (σ² + jitter) I
    arma::vec alpha_;     // (K + σ²I)⁻¹ (y − offset) / scale
    double offset_ = 0.0;
    double scale_ = 1.0;
    double jitter_ = 0.0;
    std::uint64_t epoch_ = 1;  // bumped by every full factorisation; a cache of another epoch is stale
    mutable QueryCache cache_;
};

}  // namespace dpbo::gp
