#pragma once
// The element-wise half of the RBF kernel, kept in its own translation unit because it is built
// with vector maths flags (see CMakeLists.txt): at the paper's scale (9000 validation rows × 1000
// support vectors) the exponentials cost more than the matrix product before them.
#include <armadillo>

namespace dpbo::svr_tuning {

// Turns inner products p_ij = a_i·b_j in place into exp(−γ max(‖a_i‖² + ‖b_j‖² − 2 p_ij, 0)),
// given the squared norms of the rows of a (norms_a) and of b (norms_b).
void inner_products_to_rbf(arma::mat& products, const arma::vec& norms_a, const arma::vec& norms_b, double gamma);

}  // namespace dpbo::svr_tuning
