#pragma once
// L2-regularised logistic regression, trained deterministically to a tight tolerance:
//   w_λ = argmin_w (1/n) Σ_i log(1 + exp(−y_i w·x_i)) + (λ/2)‖w‖²,
// Kusner et al. 2015, §5 (the training loss is 1-Lipschitz in w when ‖x_i‖ ≤ 1). The problem is
// λ-strongly convex, so w_λ is unique and Newton's method with backtracking converges to it from
// w = 0 along the same steps every time: f_V(λ) is a function of λ.
#include <cstddef>

#include <armadillo>

#include "libsvm_reader.hpp"

namespace dpbo::logreg_validation {

using dpbo::plugin_data::SparseRows;

// w·x_r for every row r of `rows`.
arma::vec margins(const SparseRows& rows, const arma::vec& w);

// w_λ for the rows (features given by `features`). Throws dpbo::RunError naming `owner` if Newton's
// method does not reach ‖∇‖ ≤ 1e-10 within 100 iterations (it does in about ten on a9a).
arma::vec train_logistic(const SparseRows& rows, std::size_t features, double lambda, const std::string& owner);

}  // namespace dpbo::logreg_validation
