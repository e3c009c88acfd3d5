// Squared exponential, Matérn 5/2 and polynomial covariance functions. The two stationary kernels
// share everything but their radial profile, so they share one class parameterised by it.
#include "dpbo/gp/kernel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "blas_extras.hpp"
#include "kernel_lanes.hpp"

namespace dpbo::gp {

std::string to_string(KernelFamily family) {
    switch (family) {
        case KernelFamily::SquaredExponential:
            return "squared-exponential";
        case KernelFamily::Matern52:
            return "matern52";
        case KernelFamily::Polynomial:
            return "polynomial";
    }
    return "unknown";
}

Kernel::~Kernel() = default;

namespace {

void require_columns(const arma::mat& points, std::size_t dim, const char* what) {
    if (points.n_cols != dim) {
        throw ValidationError(
            fmt::format("kernel: {} have {} columns; the kernel was built for dimension {}", what, points.n_cols, dim));
    }
}

void require_columns(const arma::rowvec& point, std::size_t dim) {
    if (point.n_elem != dim) {
        throw ValidationError(fmt::format("kernel: the point has {} coordinates; the kernel was built for dimension {}",
                                          point.n_elem, dim));
    }
}

std::string format_vector(const arma::vec& values) {
    return fmt::format("[{:.4g}]", fmt::join(values.begin(), values.end(), ", "));
}

// Σ_ab A_ab B_ab for symmetric n × n A and B, reading their lower triangles only.
double symmetric_inner_product(const arma::mat& a, const arma::mat& b) {
    double sum = 0.0;
    for (arma::uword j = 0; j < a.n_cols; ++j) {
        const double* x = a.colptr(j);
        const double* y = b.colptr(j);
        double below = 0.0;
        for (arma::uword i = j + 1; i < a.n_rows; ++i) below += x[i] * y[i];
        sum += 2.0 * below + x[j] * y[j];
    }
    return sum;
}

// The radial profile φ of a stationary kernel k(x, y) = σ_f² φ(r²), r² = Σ_j (x_j − y_j)²/ℓ_j²,
// evaluated together with its "slope" s = −2 σ_f² dφ/d(r²). The slope is all the derivatives need:
//   ∂k/∂x = −s (x − y)/ℓ²,  ∂k/∂(log ℓ_j) = s (x_j − y_j)²/ℓ_j²,  ∂²k/∂x∂x'ᵀ at x' = x: s(0) Λ⁻².
// Evaluated in place, element by element: one exp per pair and no temporaries, since these
// matrices are the largest objects of the GP layer (and its likelihood loop).
struct RadialProfile {
    KernelFamily family;

    // values ← σ_f² φ(values) where `values` holds r²; `slope`, if given, is sized and filled with s.
    // A symmetric r² (a Gram matrix) is evaluated on its lower triangle and mirrored: half the
    // exponentials.
    void evaluate_in_place(arma::mat& values, double variance, arma::mat* slope, bool symmetric = false) const {
        if (slope != nullptr) slope->set_size(values.n_rows, values.n_cols);
        // colptr() of a matrix without rows binds a reference to null memory (UBSan reports it).
        if (values.is_empty()) return;
        if (!symmetric) {
            evaluate_range(values.memptr(), slope != nullptr ? slope->memptr() : nullptr, values.n_elem, variance);
            return;
        }
        const arma::uword rows = values.n_rows;
        for (arma::uword j = 0; j < values.n_cols; ++j) {
            evaluate_range(values.colptr(j) + j, slope != nullptr ? slope->colptr(j) + j : nullptr, rows - j, variance);
        }
        for (arma::uword j = 0; j < values.n_cols; ++j) {
            for (arma::uword i = j + 1; i < rows; ++i) {
                values.at(j, i) = values.at(i, j);
                if (slope != nullptr) slope->at(j, i) = slope->at(i, j);
            }
        }
    }

    void evaluate_range(double* v, double* s, arma::uword count, double variance) const {
        detail::profile_values(lanes_family(), v, s, count, variance);
    }

    detail::ProfileFamily lanes_family() const {
        return family == KernelFamily::SquaredExponential ? detail::ProfileFamily::SquaredExponential
                                                          : detail::ProfileFamily::Matern52;
    }

    // s(0)/σ_f²: the curvature of the profile at the origin.
    double curvature_at_origin() const { return family == KernelFamily::SquaredExponential ? 1.0 : 5.0 / 3.0; }
};

class StationaryKernel final : public Kernel {
public:
    StationaryKernel(KernelFamily family, std::size_t dim, arma::vec lengthscales, double signal_variance)
        : profile_{family},
          dim_(dim),
          ard_(lengthscales.n_elem > 1),
          lengthscales_(std::move(lengthscales)),
          signal_variance_(signal_variance) {
        refresh_inverse_lengthscales();
    }

    std::unique_ptr<Kernel> clone() const override { return std::make_unique<StationaryKernel>(*this); }

    std::string describe() const override {
        const std::string name = to_string(profile_.family);
        if (ard_) {
            return fmt::format("{} ARD (lengthscales={}, signal_variance={:.4g})", name, format_vector(lengthscales_),
                               signal_variance_);
        }
        return fmt::format("{} (lengthscale={:.4g}, signal_variance={:.4g})", name, lengthscales_[0], signal_variance_);
    }

    std::size_t dim() const override { return dim_; }

    arma::mat cross(const arma::mat& a, const arma::mat& b) const override {
        require_columns(a, dim_, "points");
        require_columns(b, dim_, "points");
        arma::mat value;
        squared_distances(a, b, value);
        profile_.evaluate_in_place(value, signal_variance_, nullptr, &a == &b);
        return value;
    }

    arma::vec diagonal(const arma::mat& a) const override {
        require_columns(a, dim_, "points");
        return arma::vec(a.n_rows, arma::fill::value(signal_variance_));
    }

    arma::mat cross_gradient(const arma::rowvec& x, const arma::mat& b) const override {
        require_columns(x, dim_);
        require_columns(b, dim_, "points");
        // Differences taken directly (not through the expanded distance) so that the gradient is
        // accurate for b close to x.
        arma::mat scaled = b.t();  // d × m
        scaled.each_col() -= x.t();
        scaled.each_col() %= -inverse_lengthscales_;  // columns (x − b_j)/ℓ
        arma::mat r2 = arma::sum(arma::square(scaled), 0);
        arma::mat slope;
        profile_.evaluate_in_place(r2, signal_variance_, &slope);
        scaled.each_col() %= inverse_lengthscales_;  // (x − b_j)/ℓ²
        scaled.each_row() %= -slope;
        return scaled;
    }

    arma::mat gradient_prior_covariance(const arma::rowvec& x) const override {
        require_columns(x, dim_);
        return arma::diagmat(signal_variance_ * profile_.curvature_at_origin() * arma::square(inverse_lengthscales_));
    }

    arma::vec log_hyperparameters() const override {
        arma::vec values(lengthscales_.n_elem + 1);
        values.head(lengthscales_.n_elem) = arma::log(lengthscales_);
        values[lengthscales_.n_elem] = std::log(signal_variance_);
        return values;
    }

    void set_log_hyperparameters(const arma::vec& values) override {
        if (values.n_elem != lengthscales_.n_elem + 1) {
            throw ValidationError(fmt::format("kernel {}: {} log-hyperparameters given; it has {}",
                                              to_string(profile_.family), values.n_elem, lengthscales_.n_elem + 1));
        }
        const arma::vec natural = arma::exp(values);
        if (!natural.is_finite() || arma::any(natural <= 0.0)) {
            throw ValidationError(fmt::format("kernel {}: log-hyperparameters {} give non-positive or infinite values",
                                              to_string(profile_.family), format_vector(values)));
        }
        lengthscales_ = natural.head(lengthscales_.n_elem);
        signal_variance_ = natural[lengthscales_.n_elem];
        refresh_inverse_lengthscales();
    }

    std::vector<std::string> hyperparameter_names() const override {
        std::vector<std::string> names;
        if (ard_) {
            for (std::size_t j = 0; j < dim_; ++j) names.push_back(fmt::format("log_lengthscale_{}", j + 1));
        } else {
            names.emplace_back("log_lengthscale");
        }
        names.emplace_back("log_signal_variance");
        return names;
    }

    std::vector<arma::mat> gram_hyperparameter_gradients(const arma::mat& a) const override {
        require_columns(a, dim_, "points");
        arma::mat r2;
        squared_distances(a, a, r2);
        arma::mat value = r2;
        arma::mat slope;
        profile_.evaluate_in_place(value, signal_variance_, &slope, true);
        std::vector<arma::mat> gradients;
        gradients.reserve(lengthscales_.n_elem + 1);
        if (ard_) {
            for (std::size_t j = 0; j < dim_; ++j) {
                const arma::vec column = a.col(j) * inverse_lengthscales_[j];
                arma::mat per_dimension(a.n_rows, a.n_rows);
                per_dimension.each_col() = column;
                per_dimension.each_row() -= column.t();
                gradients.push_back(arma::square(per_dimension) % slope);
            }
        } else {
            gradients.push_back(r2 % slope);
        }
        gradients.push_back(std::move(value));  // ∂K/∂log σ_f² = K
        return gradients;
    }

    // Lower triangles of gram ← K(A, A) and slope ← the profile slope s at every pair (see
    // RadialProfile), reusing the storage of both when their sizes already match. The inner products
    // come from one syrk; r² = |a|² + |b|² − 2aᵀb is formed pair by pair inside the profile's loop,
    // so the n × n matrices are swept once.
    void gram_with_slope(const arma::mat& a, arma::mat& gram, arma::mat& slope) const {
        require_columns(a, dim_, "points");
        const arma::uword n = a.n_rows;
        gram.set_size(n, n);
        slope.set_size(n, n);
        if (n == 0) return;
        arma::mat scaled = centred_scaled(a);
        const arma::vec norms = arma::sum(arma::square(scaled), 1);
        const char uplo = 'L';
        const char trans = 'N';
        const auto order = static_cast<arma::blas_int>(n);
        const auto inner = static_cast<arma::blas_int>(dim_);
        const double one = 1.0;
        const double zero = 0.0;
        arma::blas::syrk(&uplo, &trans, &order, &inner, &one, scaled.memptr(), &order, &zero, gram.memptr(), &order);
        for (arma::uword j = 0; j < n; ++j) {
            double* column = gram.colptr(j);
            column[j] = 0.0;  // exactly: no rounding residue on the diagonal
            for (arma::uword i = j + 1; i < n; ++i) {
                column[i] = std::max(0.0, norms[i] + norms[j] - 2.0 * column[i]);
            }
            profile_.evaluate_range(column + j, slope.colptr(j) + j, n - j, signal_variance_);
        }
    }

    // ½ Σ_ab W_ab ∂K_ab/∂(log h_i) for symmetric W without forming per-dimension matrices: with
    // M = W ⊙ s and scaled inputs u = x/ℓ, Σ_ab M_ab (u_aj − u_bj)² = 2 Σ_a u_aj² (M1)_a − 2 (uᵀMu)_jj:
    // one symmetric n × n × (d + 1) product (the extra column of ones gives M1) instead of d
    // elementwise passes over n × n matrices. Reads the lower triangles only; `scratch` holds M.
    arma::vec contract_gram_gradients(const arma::mat& a, const arma::mat& gram, const arma::mat& slope,
                                      const arma::mat& weights, arma::mat& scratch) const {
        const arma::uword n = a.n_rows;
        arma::vec contracted(lengthscales_.n_elem + 1);
        scratch.set_size(n, n);
        double weighted_gram = 0.0;  // Σ_ab W_ab K_ab, for ∂K/∂log σ_f² = K
        for (arma::uword j = 0; j < n; ++j) {
            const double* w = weights.colptr(j);
            const double* k = gram.colptr(j);
            const double* s = slope.colptr(j);
            double* m = scratch.colptr(j);
            double column_sum = 0.0;
            for (arma::uword i = j + 1; i < n; ++i) {
                column_sum += w[i] * k[i];
                m[i] = w[i] * s[i];
            }
            m[j] = w[j] * s[j];
            weighted_gram += 2.0 * column_sum + w[j] * k[j];
        }
        contracted[lengthscales_.n_elem] = 0.5 * weighted_gram;
        arma::mat augmented(n, dim_ + 1);
        augmented.head_cols(dim_) = centred_scaled(a);  // smaller terms, less cancellation
        augmented.col(dim_).ones();
        arma::mat product;
        detail::multiply_symmetric_lower(scratch, augmented, product);
        const arma::mat scaled = augmented.head_cols(dim_);
        const arma::vec row_sums = product.col(dim_);
        const arma::vec per_dimension =
            (arma::square(scaled).t() * row_sums) - arma::sum(scaled % product.head_cols(dim_), 0).t();
        if (ard_) {
            contracted.head(dim_) = per_dimension;
        } else {
            contracted[0] = arma::accu(per_dimension);  // r² is the sum of the per-dimension terms
        }
        return contracted;
    }

    arma::vec lengthscales() const override {
        return ard_ ? lengthscales_ : arma::vec(dim_, arma::fill::value(lengthscales_[0]));
    }
    double signal_variance() const override { return signal_variance_; }

private:
    // Every coordinate divided by its length-scale (multiplied by the inverse), a column at a time:
    // contiguous passes, where Armadillo's each_row() walks a tall matrix row by row.
    arma::mat scaled(const arma::mat& a) const {
        arma::mat result;
        scale_into(a, result);
        return result;
    }

    // Inputs divided by the length-scales and centred on their mean: distances are translation
    // invariant, and centred terms cancel less in |a|² + |b|² − 2aᵀb.
    arma::mat centred_scaled(const arma::mat& a) const {
        arma::mat scaled = this->scaled(a);
        scaled.each_row() -= arma::mean(scaled, 0);
        return scaled;
    }

    void refresh_inverse_lengthscales() {
        inverse_lengthscales_ =
            ard_ ? arma::vec(1.0 / lengthscales_) : arma::vec(dim_, arma::fill::value(1.0 / lengthscales_[0]));
    }

    // r² between every row of a and every row of b through one matrix product:
    // |a|² + |b|² − 2abᵀ on length-scale-scaled inputs, written into r2 (its storage reused when the
    // size matches). Both sets are shifted by the mean of a first (distances are translation
    // invariant) so that the expansion cancels less for points far from the origin; rounding can
    // still leave tiny negatives, which are clamped to zero.
    void squared_distances(const arma::mat& a, const arma::mat& b, arma::mat& r2) const {
        const bool same = &a == &b;
        if (a.n_rows == 0 || b.n_rows == 0) {
            r2.zeros(a.n_rows, b.n_rows);
            return;
        }
        if (!same && dim_ <= kDirectDistanceDims) {
            direct_squared_distances(a, b, r2);
            return;
        }
        arma::mat scaled_a = scaled(a);
        const arma::rowvec shift = arma::mean(scaled_a, 0);
        scaled_a.each_row() -= shift;
        const arma::vec norms_a = arma::sum(arma::square(scaled_a), 1);
        if (same) {
            r2 = scaled_a * scaled_a.t();
            r2 *= -2.0;
            r2.each_col() += norms_a;
            r2.each_row() += norms_a.t();
            r2.diag().zeros();
        } else {
            arma::mat scaled_b = scaled(b);
            scaled_b.each_row() -= shift;
            r2 = scaled_a * scaled_b.t();
            r2 *= -2.0;
            r2.each_col() += norms_a;
            r2.each_row() += arma::sum(arma::square(scaled_b), 1).t();
        }
        r2.clamp(0.0, std::numeric_limits<double>::infinity());
    }

    // Between two sets of points in few dimensions, r² from the differences themselves
    // (kernel_lanes.hpp): one pass over the output, exact up to the rounding of each term — no
    // cancellation between large norms — and never negative. Its work per entry grows with the
    // dimension (three operations each); beyond kDirectDistanceDims the expanded product
    // |a|² + |b|² − 2aᵀb keeps level-3 BLAS's speed.
    static constexpr std::size_t kDirectDistanceDims = 16;

    void direct_squared_distances(const arma::mat& a, const arma::mat& b, arma::mat& r2) const {
        if (a.n_rows < b.n_rows && a.n_rows < 8) {
            // A few points against many (a gradient at one point): vectorised across the many, then
            // transposed — the same bits, since (x − y)² = (y − x)² exactly.
            arma::mat transposed(b.n_rows, a.n_rows);
            distances_from_scaled(scaled(b), a, transposed.memptr());
            r2 = transposed.t();
            return;
        }
        r2.set_size(a.n_rows, b.n_rows);
        distances_from_scaled(scaled(a), b, r2.memptr());
    }

    // out (rows of scaled_a × rows of b, column-major) ← r² between the points already divided by the
    // length-scales and b.
    void distances_from_scaled(const arma::mat& scaled_a, const arma::mat& b, double* out) const {
        const arma::mat scaled_b = scaled(b).t();  // one point per column
        detail::squared_distances_by_differences(scaled_a.memptr(), scaled_a.n_rows, scaled_b.memptr(), b.n_rows, dim_,
                                                 out);
    }

public:
    // For the GP's cache of one set of query points (detail::prepare_queries below): the queries
    // scaled once, then K(Q, D) for a few data points at a time straight into the cache's storage.
    bool crosses_from_scaled() const { return dim_ <= kDirectDistanceDims; }

    // `result` keeps its storage when its shape already fits (no fresh pages for a large query set).
    void scale_into(const arma::mat& a, arma::mat& result) const {
        result.set_size(a.n_rows, a.n_cols);
        for (arma::uword k = 0; k < a.n_cols; ++k) {
            const double factor = inverse_lengthscales_[k];
            const double* from = a.colptr(k);
            double* to = result.colptr(k);
            for (arma::uword i = 0; i < a.n_rows; ++i) to[i] = from[i] * factor;
        }
    }

    void cross_from_scaled(const arma::mat& scaled_queries, const arma::mat& data, double* out) const {
        const arma::mat scaled_data = scaled(data).t();  // one point per column
        detail::kernel_values_by_differences(profile_.lanes_family(), signal_variance_, scaled_queries.memptr(),
                                             scaled_queries.n_rows, scaled_data.memptr(), data.n_rows, dim_, out);
    }

private:
    RadialProfile profile_;
    std::size_t dim_;
    bool ard_;
    arma::vec lengthscales_;  // one entry (isotropic) or dim_ entries (ARD)
    double signal_variance_;
    arma::vec inverse_lengthscales_;  // always dim_ entries
};

// σ_f² (xᵀy + c)^p with integer p ≥ 1 and c > 0 (c is fitted in log space).
class PolynomialKernel final : public Kernel {
public:
    PolynomialKernel(std::size_t dim, double offset, int degree, double signal_variance)
        : dim_(dim), offset_(offset), degree_(degree), signal_variance_(signal_variance) {}

    std::unique_ptr<Kernel> clone() const override { return std::make_unique<PolynomialKernel>(*this); }

    std::string describe() const override {
        return fmt::format("polynomial (degree={}, offset={:.4g}, signal_variance={:.4g})", degree_, offset_,
                           signal_variance_);
    }

    std::size_t dim() const override { return dim_; }

    arma::mat cross(const arma::mat& a, const arma::mat& b) const override {
        require_columns(a, dim_, "points");
        require_columns(b, dim_, "points");
        return signal_variance_ * power(inner_products(a, b), degree_);
    }

    arma::vec diagonal(const arma::mat& a) const override {
        require_columns(a, dim_, "points");
        return signal_variance_ * power(arma::vec(arma::sum(arma::square(a), 1) + offset_), degree_);
    }

    arma::mat cross_gradient(const arma::rowvec& x, const arma::mat& b) const override {
        require_columns(x, dim_);
        require_columns(b, dim_, "points");
        // ∂/∂x σ_f² u^p = σ_f² p u^{p−1} b, u = xᵀb + c.
        const arma::vec u = b * x.t() + offset_;
        const arma::rowvec factor = (signal_variance_ * degree_ * power(u, degree_ - 1)).t();
        arma::mat gradient = b.t();
        gradient.each_row() %= factor;
        return gradient;
    }

    arma::mat gradient_prior_covariance(const arma::rowvec& x) const override {
        require_columns(x, dim_);
        // ∂²/∂x∂x'ᵀ σ_f² (xᵀx' + c)^p at x' = x: σ_f² [p u^{p−1} I + p(p−1) u^{p−2} x xᵀ].
        const double u = arma::dot(x, x) + offset_;
        const double p = degree_;
        arma::mat covariance = arma::eye(dim_, dim_) * (p * integer_power(u, degree_ - 1));
        if (degree_ >= 2) covariance += (p * (p - 1.0) * integer_power(u, degree_ - 2)) * (x.t() * x);
        return signal_variance_ * covariance;
    }

    arma::vec log_hyperparameters() const override { return {std::log(offset_), std::log(signal_variance_)}; }

    void set_log_hyperparameters(const arma::vec& values) override {
        if (values.n_elem != 2) {
            throw ValidationError(fmt::format(
                "kernel polynomial: {} log-hyperparameters given; it has 2 (offset, signal variance)", values.n_elem));
        }
        const double offset = std::exp(values[0]);
        const double variance = std::exp(values[1]);
        if (!std::isfinite(offset) || !std::isfinite(variance) || offset <= 0.0 || variance <= 0.0) {
            throw ValidationError(
                fmt::format("kernel polynomial: log-hyperparameters {} give non-positive or infinite "
                            "values",
                            format_vector(values)));
        }
        offset_ = offset;
        signal_variance_ = variance;
    }

    std::vector<std::string> hyperparameter_names() const override { return {"log_offset", "log_signal_variance"}; }

    std::vector<arma::mat> gram_hyperparameter_gradients(const arma::mat& a) const override {
        require_columns(a, dim_, "points");
        const arma::mat u = inner_products(a, a);
        // ∂/∂log c σ_f² u^p = c σ_f² p u^{p−1}.
        return {offset_ * signal_variance_ * degree_ * power(u, degree_ - 1), signal_variance_ * power(u, degree_)};
    }

    // gram ← K(A, A), slope ← σ_f² u^{p−1} (u = xᵀy + c), from which both derivatives follow.
    void gram_with_slope(const arma::mat& a, arma::mat& gram, arma::mat& slope) const {
        require_columns(a, dim_, "points");
        gram = a * a.t();
        gram += offset_;  // u
        slope.set_size(gram.n_rows, gram.n_cols);
        double* u = gram.memptr();
        double* s = slope.memptr();
        for (arma::uword i = 0; i < gram.n_elem; ++i) {
            s[i] = signal_variance_ * integer_power(u[i], degree_ - 1);
            u[i] *= s[i];
        }
    }

    arma::vec contract_gram_gradients(const arma::mat& gram, const arma::mat& slope, const arma::mat& weights) const {
        // ∂K/∂log c = c p σ_f² u^{p−1}, ∂K/∂log σ_f² = K.
        return {0.5 * offset_ * degree_ * symmetric_inner_product(weights, slope),
                0.5 * symmetric_inner_product(weights, gram)};
    }

    arma::vec lengthscales() const override { return arma::ones(dim_); }
    double signal_variance() const override { return signal_variance_; }

private:
    arma::mat inner_products(const arma::mat& a, const arma::mat& b) const {
        arma::mat u = (&a == &b) ? arma::mat(a * a.t()) : arma::mat(a * b.t());
        u += offset_;
        return u;
    }

    // Integer powers by repeated multiplication: exact for negative bases, cheaper than pow().
    template <class Matrix>
    static Matrix power(Matrix base, int exponent) {
        if (exponent == 0) {
            base.ones();
            return base;
        }
        const Matrix factor = base;
        for (int i = 1; i < exponent; ++i) base %= factor;
        return base;
    }

    static double integer_power(double base, int exponent) {
        double result = 1.0;
        for (int i = 0; i < exponent; ++i) result *= base;
        return result;
    }

    std::size_t dim_;
    double offset_;
    int degree_;
    double signal_variance_;
};

void require_positive(double value, const char* field) {
    if (!std::isfinite(value) || value <= 0.0) {
        throw ValidationError(fmt::format("kernel: {} = {} is not allowed; expected a finite value > 0", field, value));
    }
}

}  // namespace

namespace detail {

// The likelihood gradient's hot path, declared where it is used (gaussian_process.cpp): the
// published Kernel interface offers one matrix per hyperparameter; these give the Gram matrix and
// the same derivatives already contracted with a weight matrix, from one pass over the pairs and
// into caller-owned storage (the likelihood loop reuses it across evaluations instead of paying
// for fresh pages every time). Only lower triangles are guaranteed to be written, and only lower
// triangles of the weights are read.
void gram_with_slope(const Kernel& kernel, const arma::mat& points, arma::mat& gram, arma::mat& slope) {
    if (const auto* stationary = dynamic_cast<const StationaryKernel*>(&kernel)) {
        stationary->gram_with_slope(points, gram, slope);
        return;
    }
    if (const auto* polynomial = dynamic_cast<const PolynomialKernel*>(&kernel)) {
        polynomial->gram_with_slope(points, gram, slope);
        return;
    }
    slope.reset();
    gram = kernel.cross(points, points);
}

arma::vec contract_gram_gradients(const Kernel& kernel, const arma::mat& points, const arma::mat& gram,
                                  const arma::mat& slope, const arma::mat& weights, arma::mat& scratch) {
    if (const auto* stationary = dynamic_cast<const StationaryKernel*>(&kernel)) {
        return stationary->contract_gram_gradients(points, gram, slope, weights, scratch);
    }
    if (const auto* polynomial = dynamic_cast<const PolynomialKernel*>(&kernel)) {
        return polynomial->contract_gram_gradients(gram, slope, weights);
    }
    const std::vector<arma::mat> derivatives = kernel.gram_hyperparameter_gradients(points);
    arma::vec contracted(derivatives.size());
    for (std::size_t i = 0; i < derivatives.size(); ++i) {
        contracted[i] = 0.5 * symmetric_inner_product(weights, derivatives[i]);
    }
    return contracted;
}

void prepare_queries(const Kernel& kernel, const arma::mat& queries, arma::mat& prepared) {
    const auto* stationary = dynamic_cast<const StationaryKernel*>(&kernel);
    if (stationary != nullptr && stationary->crosses_from_scaled() && queries.n_cols == kernel.dim()) {
        stationary->scale_into(queries, prepared);
    } else {
        prepared.reset();
    }
}

void cross_into(const Kernel& kernel, const arma::mat& queries, const arma::mat& prepared, const arma::mat& data,
                double* out) {
    if (!prepared.is_empty()) {
        // prepare_queries only fills it for a stationary kernel.
        static_cast<const StationaryKernel&>(kernel).cross_from_scaled(prepared, data, out);
        return;
    }
    const arma::mat cross = kernel.cross(queries, data);
    std::copy_n(cross.memptr(), cross.n_elem, out);
}

}  // namespace detail

std::unique_ptr<Kernel> make_kernel(const KernelSpec& spec) {
    if (spec.dim == 0) throw ValidationError("kernel: dim = 0 is not allowed; expected at least 1 input dimension");
    require_positive(spec.signal_variance, "signal_variance");
    switch (spec.family) {
        case KernelFamily::SquaredExponential:
        case KernelFamily::Matern52: {
            if (spec.lengthscales.n_elem != 1 && spec.lengthscales.n_elem != spec.dim) {
                throw ValidationError(fmt::format(
                    "kernel {}: lengthscales has {} entries; expected 1 (isotropic) or {} (one per dimension, ARD)",
                    to_string(spec.family), spec.lengthscales.n_elem, spec.dim));
            }
            for (double lengthscale : spec.lengthscales) require_positive(lengthscale, "lengthscales");
            return std::make_unique<StationaryKernel>(spec.family, spec.dim, spec.lengthscales, spec.signal_variance);
        }
        case KernelFamily::Polynomial:
            if (spec.polynomial_degree < 1) {
                throw ValidationError(
                    fmt::format("kernel polynomial: polynomial_degree = {} is not allowed; expected "
                                "an integer >= 1",
                                spec.polynomial_degree));
            }
            // c enters in log space when fitted, so it must be positive.
            require_positive(spec.polynomial_offset, "polynomial_offset");
            return std::make_unique<PolynomialKernel>(spec.dim, spec.polynomial_offset, spec.polynomial_degree,
                                                      spec.signal_variance);
    }
    throw ValidationError("kernel: unknown kernel family");
}

}  // namespace dpbo::gp
