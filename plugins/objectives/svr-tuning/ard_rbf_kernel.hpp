#pragma once
// The ARD RBF kernel k(x, x') = exp(−γ Σ_j (x_j − x'_j)² / ℓ_j²) — scikit-learn's RBF kernel with
// coefficient γ on inputs divided by the length-scales, as the authors' script builds it. Computed
// in BLAS-3 shape: inputs scaled once by 1/ℓ, squared distances from one matrix product
// ‖a‖² + ‖b‖² − 2 a·b.
#include <armadillo>

namespace dpbo::svr_tuning {

// Rows are points; each column is multiplied by its inverse length-scale.
arma::mat scale_inputs(const arma::mat& inputs, const arma::rowvec& inverse_lengthscales);

// n × n kernel of already scaled rows, symmetric with an exact unit diagonal.
arma::mat rbf_gram(const arma::mat& scaled, double gamma);

// a × b kernel between two sets of already scaled rows.
arma::mat rbf_cross(const arma::mat& scaled_a, const arma::mat& scaled_b, double gamma);

}  // namespace dpbo::svr_tuning
