#include "ard_rbf_kernel.hpp"

#include "rbf_exp.hpp"

namespace dpbo::svr_tuning {

arma::mat scale_inputs(const arma::mat& inputs, const arma::rowvec& inverse_lengthscales) {
    arma::mat scaled = inputs;
    scaled.each_row() %= inverse_lengthscales;
    return scaled;
}

arma::mat rbf_gram(const arma::mat& scaled, double gamma) {
    arma::mat kernel = scaled * scaled.t();
    const arma::vec norms = kernel.diag();
    inner_products_to_rbf(kernel, norms, norms, gamma);
    // The vector and scalar exp of the loop's body and remainder may differ in the last bit;
    // libsvm reads each row as the column too, so the kernel is made exactly symmetric.
    kernel = arma::symmatu(kernel);
    kernel.diag().ones();
    return kernel;
}

arma::mat rbf_cross(const arma::mat& scaled_a, const arma::mat& scaled_b, double gamma) {
    arma::mat kernel = scaled_a * scaled_b.t();
    inner_products_to_rbf(kernel, arma::sum(arma::square(scaled_a), 1), arma::sum(arma::square(scaled_b), 1), gamma);
    return kernel;
}

}  // namespace dpbo::svr_tuning
