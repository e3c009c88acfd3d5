#include "validation_fit.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"

namespace dpbo::gp_lengthscales {

namespace {

// (∂K(A, X)/∂θ_k) α for every k, as an rows(A) × d matrix, from `products` = K(A, X)·W with
// W = [α, X∘α, X²∘α] (columns 0, 1..d, d+1..2d; X centred like A). Since
// ∂k(a, x)/∂θ_k = k(a, x)(a_k − x_k)²/θ_k³, expanding the square turns the sum over x into
// a_k²·(Kα) − 2a_k·(K(x_k∘α)) + K(x_k²∘α): three blocks of one matrix product instead of d
// elementwise passes over the kernel matrix.
arma::mat lengthscale_derivative_times_weights(const arma::mat& centred_a, const arma::mat& products,
                                               const arma::rowvec& lengthscales) {
    const arma::uword d = lengthscales.n_elem;
    arma::mat result = arma::square(centred_a);
    result.each_col() %= products.col(0);
    result -= 2.0 * (centred_a % products.cols(1, d));
    result += products.cols(d + 1, 2 * d);
    result.each_row() /= arma::pow(lengthscales, 3);
    return result;
}

}  // namespace

ValidationFit::ValidationFit(const RegressionData& data, const arma::rowvec& lengthscales, const std::string& owner)
    : data_(data), lengthscales_(lengthscales) {
    const arma::rowvec centre = arma::mean(data.train_inputs, 0);
    train_ = scale_inputs(data.train_inputs, centre, lengthscales);
    validation_ = scale_inputs(data.validation_inputs, centre, lengthscales);

    factor_ = rbf_gram_lower(train_, data.signal_variance);
    factor_.diag() += data.noise_variance;
    char uplo = 'L';
    auto n = static_cast<arma::blas_int>(factor_.n_rows);
    arma::blas_int info = 0;
    arma::lapack::potrf(&uplo, &n, factor_.memptr(), &n, &info);
    // OpenBLAS's potrf lets NaN pivots through (they fail no `<= 0` test), so the diagonal is
    // checked too: it catches length-scales so extreme that the distances overflowed.
    if (info != 0 || !factor_.diag().is_finite()) {
        throw dpbo::RunError(
            fmt::format("{}: the training kernel matrix at length-scales ({:.6g}) plus the noise variance "
                        "{:.3g} could not be factorised (LAPACK potrf info {}); the length-scales are too "
                        "extreme for the kernel to be computed",
                        owner, fmt::join(lengthscales.begin(), lengthscales.end(), ", "), data.noise_variance, info));
    }
    arma::mat weights = data.train_targets;
    solve_in_place(weights);
    weights_ = weights;
    cross_ = rbf_cross(validation_, train_, data.signal_variance);
    residuals_ = data.validation_targets - cross_ * weights_;
}

void ValidationFit::solve_in_place(arma::mat& rhs) const {
    char uplo = 'L';
    char diag = 'N';
    auto n = static_cast<arma::blas_int>(factor_.n_rows);
    auto columns = static_cast<arma::blas_int>(rhs.n_cols);
    arma::blas_int info = 0;
    // trtrs solves with the factor as stored, 'T' with its transpose: no transposed copy.
    for (char trans : {'N', 'T'}) {
        arma::lapack::trtrs(&uplo, &trans, &diag, &n, &columns, factor_.memptr(), &n, rhs.memptr(), &n, &info);
    }
}

// m = K_* α with α = (K + σ²I)⁻¹ y, so ∂m/∂θ_k = (∂K_*/∂θ_k) α − K_* (K + σ²I)⁻¹ (∂K/∂θ_k) α, and
// record i's loss (y_i − m_i)² has gradient −2 (y_i − m_i) ∂m_i/∂θ.
arma::mat ValidationFit::record_loss_gradients() const {
    // The scaled inputs times θ are the centred inputs: differences as in ∂k/∂θ_k.
    const arma::mat train = train_.points.each_row() % lengthscales_;
    const arma::mat validation = validation_.points.each_row() % lengthscales_;
    const arma::uword d = train.n_cols;

    arma::mat weighted(train.n_rows, 2 * d + 1);
    weighted.col(0) = weights_;
    weighted.cols(1, d) = train.each_col() % weights_;
    const arma::mat train_squared = arma::square(train);
    weighted.cols(d + 1, 2 * d) = train_squared.each_col() % weights_;

    arma::mat gram = rbf_cross(train_, train_, data_.signal_variance);
    gram.diag().fill(data_.signal_variance);
    const arma::mat train_derivative = lengthscale_derivative_times_weights(train, gram * weighted, lengthscales_);
    const arma::mat validation_derivative =
        lengthscale_derivative_times_weights(validation, cross_ * weighted, lengthscales_);

    arma::mat solved = train_derivative;
    solve_in_place(solved);
    arma::mat mean_gradients = validation_derivative - cross_ * solved;
    mean_gradients.each_col() %= -2.0 * residuals_;
    return mean_gradients;
}

}  // namespace dpbo::gp_lengthscales
