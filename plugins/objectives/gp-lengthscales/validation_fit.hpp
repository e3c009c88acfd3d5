#pragma once
// The GP regression whose length-scales are being tuned, fitted at one setting θ: kernel
// RBF-ARD(θ) with the data's true signal and noise variances (held fixed, so θ is the only thing
// tuned), conditioned on the training split, predicting the validation inputs.
//
// Cost per fit: one Cholesky factorisation (LAPACK potrf, in place) of the n_train × n_train matrix
// K + σ²I, two triangular solves for the weights, and the n_val × n_train cross-kernel matrix
// (rbf_matrices.hpp); never an inverse. No jitter: the noise variance on the diagonal (data_noise ≥
// 1e-3, so σ² ≥ 1e-6) exceeds the rounding of K by orders of magnitude.
#include <string>

#include <armadillo>

#include "rbf_matrices.hpp"
#include "regression_data.hpp"

namespace dpbo::gp_lengthscales {

class ValidationFit {
public:
    // `lengthscales` must be positive and finite (the caller checks and names the point). Throws
    // dpbo::RunError naming `owner` and θ if K + σ²I cannot be factorised.
    ValidationFit(const RegressionData& data, const arma::rowvec& lengthscales, const std::string& owner);

    // y_val − m(x_val), one entry per validation record.
    const arma::vec& residuals() const { return residuals_; }
    // (y_val − m(x_val))²: the per-record validation losses.
    arma::vec record_losses() const { return arma::square(residuals_); }
    // ∂/∂θ of every record's loss: n_val × d, row i the gradient of record i's loss.
    arma::mat record_loss_gradients() const;

private:
    // rhs ← (K + σ²I)⁻¹ rhs by two triangular solves with the stored factor.
    void solve_in_place(arma::mat& rhs) const;

    const RegressionData& data_;
    arma::rowvec lengthscales_;
    ScaledInputs train_;
    ScaledInputs validation_;
    arma::mat factor_;   // lower Cholesky factor of K + σ²I; strict upper triangle unspecified
    arma::vec weights_;  // (K + σ²I)⁻¹ y_train
    arma::mat cross_;    // K(X_val, X_train)
    arma::vec residuals_;
};

}  // namespace dpbo::gp_lengthscales
