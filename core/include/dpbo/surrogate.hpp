#pragma once
// Probabilistic models of the objective. The GP layer (issue 3) implements this interface; the
// gradient methods serve GIBO and DP-GIBO, the append path serves every sequential algorithm.
#include <armadillo>

#include "dpbo/module.hpp"

namespace dpbo {

struct Posterior {
    arma::vec mean;      // one entry per query point
    arma::vec variance;  // latent-function variance, without observation noise
};

class Surrogate : public Module {
public:
    ~Surrogate() override;
    static constexpr ModuleKind static_kind = ModuleKind::Surrogate;
    ModuleKind kind() const final { return static_kind; }

    // Replaces the data (rows of X, one target per row) and refactorises.
    virtual void condition(const arma::mat& points, const arma::vec& targets) = 0;
    // Adds points to the data; implementations update their factorisation incrementally.
    virtual void append(const arma::mat& points, const arma::vec& targets) = 0;
    virtual std::size_t size() const = 0;
    virtual Posterior predict(const arma::mat& points) const = 0;

    // ∇m(θ) (d) and Σ∇(θ) (d×d); surrogates whose kernel is not differentiable say so.
    virtual bool provides_gradients() const { return false; }
    virtual arma::vec mean_gradient(const arma::rowvec& point) const;
    virtual arma::mat gradient_covariance(const arma::rowvec& point) const;
};

}  // namespace dpbo
