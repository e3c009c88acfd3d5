#include "finite_set_posterior.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::dp_ucb {

FiniteSetPosterior::FiniteSetPosterior(const arma::mat& candidates, const dpbo::gp::Kernel& kernel,
                                       double noise_variance, std::size_t capacity)
    : candidates_(candidates),
      kernel_(kernel),
      noise_variance_(noise_variance),
      factor_(candidates.n_rows, capacity),
      mean_(candidates.n_rows, arma::fill::zeros),
      variance_(kernel.diagonal(candidates)) {}

void FiniteSetPosterior::add_column(std::size_t row, double& root, double& prior_variance) {
    if (count_ == factor_.n_cols)
        throw dpbo::RunError(
            fmt::format("finite-set posterior: more than the {} observations it was sized for", factor_.n_cols));
    prior_variance = variance_(row);
    root = std::sqrt(prior_variance + noise_variance_);
    if (!(root > 0.0))
        throw dpbo::RunError(fmt::format("finite-set posterior: candidate {} has no variance left to observe", row));
    // Cov_{t−1}(Λ, x) = k(Λ, x) − V_{t−1} V_{t−1}(x)ᵀ.
    arma::vec column = kernel_.cross(candidates_, candidates_.row(row));
    if (count_ > 0) {
        // The first count_ columns, aliased in place: a subview would be copied (|Λ|·t doubles per step).
        const arma::mat held(factor_.memptr(), factor_.n_rows, count_, /*copy_aux_mem=*/false, /*strict=*/true);
        const arma::vec at_row = held.row(row).t();
        column -= held * at_row;
    }
    column /= root;
    factor_.col(count_) = column;
    variance_ -= arma::square(column);
    // Rounding can leave a tiny negative variance where the posterior is (numerically) exact.
    variance_.transform([](double v) { return std::max(v, 0.0); });
    ++count_;
}

double FiniteSetPosterior::observe(std::size_t row, double value) {
    const double residual = value - mean_(row);
    double root = 0.0;
    double prior_variance = 0.0;
    add_column(row, root, prior_variance);
    mean_ += factor_.col(count_ - 1) * (residual / root);
    return prior_variance;
}

double FiniteSetPosterior::observe_variance_only(std::size_t row) {
    double root = 0.0;
    double prior_variance = 0.0;
    add_column(row, root, prior_variance);
    return prior_variance;
}

}  // namespace dpbo::dp_ucb
