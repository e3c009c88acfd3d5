#include "rbf_matrices.hpp"

#include <algorithm>
#include <cmath>

#include "vector_exp.hpp"

namespace dpbo::gp_lengthscales {

namespace {

// column[i] ← σ_f² exp(−½ r²) with r² = |a_i|² + |b|² − 2·column[i] (the inner product), clamped at
// 0 against rounding; σ_f² enters the exponent as log σ_f², saving a pass.
void inner_products_to_kernel(double* column, const double* norms_a, double norm_b, arma::uword count,
                              double log_variance) {
    for (arma::uword i = 0; i < count; ++i) {
        const double r2 = norms_a[i] + norm_b - 2.0 * column[i];
        column[i] = log_variance - 0.5 * std::max(r2, 0.0);
    }
    exp_in_place(column, count);
}

}  // namespace

ScaledInputs scale_inputs(const arma::mat& inputs, const arma::rowvec& centre, const arma::rowvec& lengthscales) {
    ScaledInputs scaled;
    scaled.points = inputs.each_row() - centre;
    scaled.points.each_row() /= lengthscales;
    scaled.squared_norms = arma::sum(arma::square(scaled.points), 1);
    return scaled;
}

arma::mat rbf_gram_lower(const ScaledInputs& a, double signal_variance) {
    arma::mat gram = a.points * a.points.t();
    const double log_variance = std::log(signal_variance);
    const arma::uword n = gram.n_rows;
    for (arma::uword j = 0; j < n; ++j) {
        inner_products_to_kernel(gram.colptr(j) + j, a.squared_norms.memptr() + j, a.squared_norms(j), n - j,
                                 log_variance);
    }
    gram.diag().fill(signal_variance);  // r² = 0 exactly, whatever the rounding above
    return gram;
}

arma::mat rbf_cross(const ScaledInputs& a, const ScaledInputs& b, double signal_variance) {
    arma::mat cross = a.points * b.points.t();
    const double log_variance = std::log(signal_variance);
    for (arma::uword j = 0; j < cross.n_cols; ++j) {
        inner_products_to_kernel(cross.colptr(j), a.squared_norms.memptr(), b.squared_norms(j), cross.n_rows,
                                 log_variance);
    }
    return cross;
}

}  // namespace dpbo::gp_lengthscales
