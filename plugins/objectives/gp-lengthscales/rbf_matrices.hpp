#pragma once
// RBF-ARD kernel matrices k(a, b) = σ_f² exp(−½ Σ_k (a_k − b_k)²/θ_k²) at one setting θ, built the
// fast way: the inputs are scaled by 1/θ once, the squared distances of all pairs come from one
// matrix product (|a|² + |b|² − 2abᵀ, BLAS-3), and one pass per column turns them into kernel
// values with vectorised exponentials.
#include <armadillo>

namespace dpbo::gp_lengthscales {

struct ScaledInputs {
    arma::mat points;         // rows (x − centre)/θ
    arma::vec squared_norms;  // |row|²
};

// Subtracting a common centre changes no distance; the training mean keeps the expanded squares
// from cancelling.
ScaledInputs scale_inputs(const arma::mat& inputs, const arma::rowvec& centre, const arma::rowvec& lengthscales);

// k(A, A) on and below the diagonal: all that a lower Cholesky factorisation reads. The strict
// upper triangle holds leftovers of the distance computation.
arma::mat rbf_gram_lower(const ScaledInputs& a, double signal_variance);

// k(A, B), rows(A) × rows(B), every entry.
arma::mat rbf_cross(const ScaledInputs& a, const ScaledInputs& b, double signal_variance);

}  // namespace dpbo::gp_lengthscales
