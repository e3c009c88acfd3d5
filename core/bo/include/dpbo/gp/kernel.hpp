#pragma once
// Covariance functions with the analytic derivatives Bayesian optimisation needs: in the inputs
// (posterior gradients, acquisition gradients, GIBO) and in the log-hyperparameters (marginal
// likelihood fitting). Points are rows.
#include <memory>
#include <string>
#include <vector>

#include <armadillo>

namespace dpbo::gp {

enum class KernelFamily { SquaredExponential, Matern52, Polynomial };

std::string to_string(KernelFamily family);

struct KernelSpec {
    KernelFamily family = KernelFamily::SquaredExponential;
    std::size_t dim = 1;
    // One entry: isotropic; `dim` entries: ARD. Ignored by the polynomial kernel.
    arma::vec lengthscales = arma::vec{1.0};
    double signal_variance = 1.0;
    double polynomial_offset = 1.0;  // c in σ_f² (xᵀy + c)^p
    int polynomial_degree = 2;       // p
};

class Kernel {
public:
    virtual ~Kernel();
    virtual std::unique_ptr<Kernel> clone() const = 0;
    virtual std::string describe() const = 0;
    virtual std::size_t dim() const = 0;

    // k(A, B): rows(A) × rows(B). Vectorised (BLAS-3 for the distance computation).
    virtual arma::mat cross(const arma::mat& a, const arma::mat& b) const = 0;
    // k(x, x) for every row of A.
    virtual arma::vec diagonal(const arma::mat& a) const = 0;
    // ∇k(x, B): d × rows(B); column j is ∂k(x, b_j)/∂x (∇k(θ, D) in DP-GIBO's notation, Sopa et al.).
    virtual arma::mat cross_gradient(const arma::rowvec& x, const arma::mat& b) const = 0;
    // Cov(∇f(x), ∇f(x)) = ∂²k(x, x')/∂x ∂x'ᵀ at x' = x (d × d): the prior gradient covariance.
    virtual arma::mat gradient_prior_covariance(const arma::rowvec& x) const = 0;

    // Hyperparameters in log space: [log ℓ_1..ℓ_m, log σ_f²] for stationary kernels,
    // [log c, log σ_f²] for the polynomial kernel (p is fixed).
    virtual arma::vec log_hyperparameters() const = 0;
    virtual void set_log_hyperparameters(const arma::vec& values) = 0;
    virtual std::vector<std::string> hyperparameter_names() const = 0;
    // ∂K(A, A)/∂(log h_i), one rows(A) × rows(A) matrix per hyperparameter.
    virtual std::vector<arma::mat> gram_hyperparameter_gradients(const arma::mat& a) const = 0;

    // Per-dimension length-scales (d entries; ones for the polynomial kernel).
    virtual arma::vec lengthscales() const = 0;
    virtual double signal_variance() const = 0;
};

// Throws ValidationError naming the offending field (non-positive length-scale, a length-scale
// vector whose size is neither 1 nor dim, a degree < 1, ...).
std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec);

}  // namespace dpbo::gp
