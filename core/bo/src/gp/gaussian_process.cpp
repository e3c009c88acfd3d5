// Exact GP regression on a lower Cholesky factor L of K + (σ² + jitter) I, kept as the leading
// size() × size() block of chol_ (appends leave spare capacity after it). Everything that needs
// (K + σ²I)⁻¹ goes through triangular solves with L (LAPACK trtrs straight on the stored factor, so
// the transposed solve needs no transposed copy); the one place an inverse is formed is the trace
// term of the likelihood gradient, see there.
//
// Units: targets are modelled as y = offset + scale·g with g ~ GP(0, k) observed with noise σ², so
// the kernel and the noise variance live in the units of the centred, standardised targets
// (offset = 0 and scale = 1 unless Constant / standardise are chosen). This keeps the factor
// independent of the targets: appending points never refactorises, even when offset and scale move.
#include "dpbo/gp/gaussian_process.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "blas_extras.hpp"
#include "cache_products.hpp"
#include "point_pool.hpp"

namespace dpbo::gp {

namespace detail {
// Defined in kernel.cpp next to the kernels whose structure they exploit: K(A, A) with the
// kernel-specific "slope" matrix, and ½ Σ_ab W_ab ∂K_ab/∂(log h_i) for every kernel hyperparameter,
// both into caller-owned storage. All three matrices are symmetric and only their lower triangles
// (diagonal included) are written or read: half the kernel evaluations, no mirroring.
void gram_with_slope(const Kernel& kernel, const arma::mat& points, arma::mat& gram, arma::mat& slope);
arma::vec contract_gram_gradients(const Kernel& kernel, const arma::mat& points, const arma::mat& gram,
                                  const arma::mat& slope, const arma::mat& weights, arma::mat& scratch);
// For the cache of one set of query points: what a kernel can prepare of them once per kernel state
// (a stationary kernel in few dimensions: the points divided by the length-scales; otherwise
// nothing), then K(Q, D) for some data points written to `out` (queries × data rows, column-major),
// the same values as kernel.cross(queries, data).
void prepare_queries(const Kernel& kernel, const arma::mat& queries, arma::mat& prepared);
void cross_into(const Kernel& kernel, const arma::mat& queries, const arma::mat& prepared, const arma::mat& data,
                double* out);
}  // namespace detail

namespace {

// ∇k(D, x)ᵀ as n × d. Armadillo's transpose of a d × 0 matrix binds a reference to its null memory
// (undefined behaviour that UBSan reports), so no data gives the empty n × d matrix directly.
arma::mat gradient_columns(const Kernel& kernel, const arma::rowvec& x, const arma::mat& points) {
    if (points.n_rows == 0) return arma::mat(0, x.n_elem);
    return kernel.cross_gradient(x, points).t();
}

constexpr const char* kOwner = "Gaussian process";

// Lower Cholesky factor in place; false when the matrix is not positive definite. The strictly
// upper triangle is zeroed so the result is the documented triangular L, unless the caller only
// hands the factor to routines that read the lower triangle (the likelihood's inner loop).
// Only the leading `order` × `order` block is factorised when `order` is given (a factor stored with
// spare capacity).
bool cholesky_lower_in_place(arma::mat& matrix, bool zero_upper = true, arma::uword order = 0) {
    if (order == 0) order = matrix.n_rows;
    if (order == 0) return true;
    char uplo = 'L';
    arma::blas_int n = static_cast<arma::blas_int>(order);
    arma::blas_int stride = static_cast<arma::blas_int>(matrix.n_rows);
    arma::blas_int info = 0;
    arma::lapack::potrf(&uplo, &n, matrix.memptr(), &stride, &info);
    // OpenBLAS's potrf tests pivots with `<= 0`, which NaN passes: a non-finite entry of the matrix
    // propagates into every later pivot, so checking the diagonal catches it.
    if (info != 0) return false;
    for (arma::uword i = 0; i < order; ++i)
        if (!std::isfinite(matrix.at(i, i))) return false;
    if (zero_upper) {
        for (arma::uword j = 1; j < order; ++j) std::fill_n(matrix.colptr(j), j, 0.0);
    }
    return true;
}

// From this many points on, a full factorisation is built in a matrix with room for appends (25 %
// more rows and columns, never written until used) and the Gram matrix is filled a block of columns
// at a time: the factor is then the only n × n matrix, and the first appends do not copy it. Below
// it the Gram matrix comes whole (the kernel's symmetric path evaluates half of it).
constexpr arma::uword kLargeFactor = 2048;
constexpr arma::uword kGramColumnBlock = 256;

// rhs ← L⁻¹ rhs, or L⁻ᵀ rhs when `transposed`, where L is the leading rows(rhs) × rows(rhs) block of
// the lower-triangular `lower` (which may hold spare capacity beyond it).
void triangular_solve_in_place(const arma::mat& lower, arma::mat& rhs, bool transposed) {
    if (const arma::blas_int info = detail::solve_with_lower_block(lower, 0, rhs, transposed); info != 0) {
        throw RunError(fmt::format("{}: the Cholesky factor has a zero on its diagonal (entry {})", kOwner, info));
    }
}

// rhs ← (L Lᵀ)⁻¹ rhs.
void cholesky_solve_in_place(const arma::mat& lower, arma::mat& rhs) {
    triangular_solve_in_place(lower, rhs, false);
    triangular_solve_in_place(lower, rhs, true);
}

// The jitters tried, in units of the mean diagonal of K: 0, then jitter_start ×10 up to jitter_max.
std::vector<double> jitter_ladder(const GpSettings& settings, double diagonal_mean) {
    std::vector<double> ladder{0.0};
    for (double relative = settings.jitter_start; relative <= settings.jitter_max * (1.0 + 1e-9); relative *= 10.0) {
        ladder.push_back(relative * diagonal_mean);
    }
    return ladder;
}

// Factorises `matrix` + j I for the first j of the ladder that works; the jitter used, or nothing.
std::optional<double> factorise_with_jitter(const arma::mat& matrix, const std::vector<double>& ladder,
                                            arma::mat& factor) {
    for (double jitter : ladder) {
        factor = matrix;
        if (jitter > 0.0) factor.diag() += jitter;
        if (cholesky_lower_in_place(factor)) return jitter;
    }
    return std::nullopt;
}

// The leading n × n block of a factor that may hold spare capacity.
arma::mat leading_block(const arma::mat& factor, arma::uword n) {
    return n == 0 ? arma::mat() : arma::mat(factor.submat(0, 0, n - 1, n - 1));
}

double log_likelihood_from_factor(const arma::mat& factor, const arma::vec& centred, const arma::vec& alpha) {
    double half_log_determinant = 0.0;
    for (arma::uword i = 0; i < centred.n_elem; ++i) half_log_determinant += std::log(factor.at(i, i));
    return -0.5 * arma::dot(centred, alpha) - half_log_determinant -
           0.5 * static_cast<double>(centred.n_elem) * std::log(2.0 * arma::datum::pi);
}

// Storage for one likelihood evaluation: n × n matrices that the fit's inner loop reuses from one
// evaluation to the next (a fresh n × n allocation costs page faults comparable to the arithmetic).
struct LikelihoodWorkspace {
    explicit LikelihoodWorkspace(std::vector<arma::mat>& slots) : storage(slots) {
        if (storage.size() < 5) storage.resize(5);
    }
    arma::mat& gram() { return storage[0]; }
    arma::mat& slope() { return storage[1]; }
    arma::mat& factor() { return storage[2]; }
    arma::mat& weights() { return storage[3]; }
    arma::mat& scratch() { return storage[4]; }
    std::vector<arma::mat>& storage;
};

// L⁻¹ in place for the lower-triangular block [begin, begin + size) of `lower` (its strictly upper
// part is neither read nor written), by [A 0; B C]⁻¹ = [A⁻¹ 0; −C⁻¹ B A⁻¹ C⁻¹] with both products
// as in-place triangular multiplications (trmm): n³/3 flops in level-3 BLAS, no allocation.
// LAPACK's trtri does the same blocking, but OpenBLAS runs it unblocked (matrix–vector products) at
// the sizes likelihood fitting meets, where it is three times slower.
void invert_lower_in_place(arma::mat& lower, arma::uword begin, arma::uword size) {
    constexpr arma::uword kLeafSize = 16;  // measured at n = 100 and 200: 16 beats 32 and 64
    arma::blas_int stride = static_cast<arma::blas_int>(lower.n_rows);
    if (size <= kLeafSize) {
        char uplo = 'L';
        char diag = 'N';
        arma::blas_int order = static_cast<arma::blas_int>(size);
        arma::blas_int info = 0;
        arma::lapack::trtri(&uplo, &diag, &order, lower.colptr(begin) + begin, &stride, &info);
        if (info != 0) {
            throw RunError(fmt::format("{}: the Cholesky factor is singular (LAPACK trtri info {})", kOwner, info));
        }
        return;
    }
    const arma::uword half = size / 2;
    const arma::uword middle = begin + half;
    invert_lower_in_place(lower, begin, half);
    invert_lower_in_place(lower, middle, size - half);
    double* leading_inverse = lower.colptr(begin) + begin;     // A⁻¹
    double* trailing_inverse = lower.colptr(middle) + middle;  // C⁻¹
    double* off_diagonal = lower.colptr(begin) + middle;       // B, becomes −C⁻¹ B A⁻¹
    const auto rows = static_cast<arma::blas_int>(size - half);
    const auto columns = static_cast<arma::blas_int>(half);
    detail::multiply_by_lower(false, 1.0, leading_inverse, off_diagonal, rows, columns, stride);
    detail::multiply_by_lower(true, -1.0, trailing_inverse, off_diagonal, rows, columns, stride);
}

// ∂/∂θ log p = ½ tr((ααᵀ − (K + σ²I)⁻¹) ∂K/∂θ) for [kernel log-hyperparameters, log σ²]. The trace
// needs every entry of the inverse, so it is formed here from the factor, as L⁻ᵀ L⁻¹: L⁻¹ by
// triangular products, then LAPACK's lauum for the product of a triangle with its transpose
// (n³/3 flops each, a third of what a general product would spend on the zeros). At the sizes
// where likelihood fitting runs this is the cheapest exact route, and it is the only place the
// inverse is formed. Only lower triangles are computed. `weights` comes in holding the n × n factor
// L (lower triangle) and is overwritten: the fit's loop hands over its scratch factor instead of
// copying it.
arma::vec likelihood_gradient_from_factor(const Kernel& kernel, const arma::mat& points, arma::mat& weights,
                                          const arma::vec& alpha, double noise_variance,
                                          LikelihoodWorkspace& workspace) {
    const std::size_t n = alpha.n_elem;
    invert_lower_in_place(weights, 0, n);
    if (const arma::blas_int info = detail::lower_gram_in_place(weights); info != 0) {
        throw RunError(fmt::format("{}: LAPACK lauum failed (info {})", kOwner, info));
    }
    // W = ααᵀ − (K + σ²I)⁻¹ on the lower triangle, in place.
    double trace = 0.0;
    for (arma::uword j = 0; j < n; ++j) {
        double* column = weights.colptr(j);
        const double alpha_j = alpha[j];
        for (arma::uword i = j; i < n; ++i) column[i] = alpha[i] * alpha_j - column[i];
        trace += column[j];
    }
    const arma::vec kernel_part = detail::contract_gram_gradients(kernel, points, workspace.gram(), workspace.slope(),
                                                                  weights, workspace.scratch());
    arma::vec gradient(kernel_part.n_elem + 1);
    gradient.head(kernel_part.n_elem) = kernel_part;
    // ∂(K + σ²I)/∂ log σ² = σ² I.
    gradient[kernel_part.n_elem] = 0.5 * noise_variance * trace;
    return gradient;
}

std::string format_row(const arma::rowvec& row) {
    return fmt::format("[{:.6g}]", fmt::join(row.begin(), row.end(), ", "));
}

// Why K + σ²I could not be factorised: identical rows, otherwise the most strongly correlated
// pair, and the smallest length-scale (only computed on the failure path).
std::string likely_cause(const arma::mat& points, const Kernel& kernel) {
    std::vector<arma::uword> order(points.n_rows);
    std::iota(order.begin(), order.end(), arma::uword{0});
    const auto row_less = [&](arma::uword a, arma::uword b) {
        for (arma::uword j = 0; j < points.n_cols; ++j) {
            if (points(a, j) != points(b, j)) return points(a, j) < points(b, j);
        }
        return false;
    };
    std::sort(order.begin(), order.end(), row_less);
    std::string cause;
    for (std::size_t i = 1; i < order.size(); ++i) {
        if (!row_less(order[i - 1], order[i]) && !row_less(order[i], order[i - 1])) {
            const arma::uword first = std::min(order[i - 1], order[i]);
            const arma::uword second = std::max(order[i - 1], order[i]);
            cause = fmt::format("duplicate points (rows {} and {} are both {}) with too little noise variance", first,
                                second, format_row(points.row(first)));
            break;
        }
    }
    const std::vector<std::string> names = kernel.hyperparameter_names();
    const bool has_lengthscales = std::any_of(
        names.begin(), names.end(), [](const std::string& name) { return name.starts_with("log_lengthscale"); });
    const std::string lengthscale_clause =
        has_lengthscales ? fmt::format("a vanishing length-scale (smallest: {:.3g})", kernel.lengthscales().min())
                         : std::string("extreme kernel hyperparameters");
    if (cause.empty() && points.n_rows >= 2) {
        arma::mat correlation = kernel.cross(points, points);
        if (!correlation.is_finite()) {
            return fmt::format("the kernel matrix holds non-finite values: {} or inputs too large for it",
                               lengthscale_clause);
        }
        const arma::vec scale = 1.0 / arma::sqrt(correlation.diag());
        correlation.each_col() %= scale;
        correlation.each_row() %= scale.t();
        correlation.diag().fill(-std::numeric_limits<double>::infinity());
        const arma::uword index = correlation.index_max();
        const arma::uword row = index % correlation.n_rows;
        const arma::uword col = index / correlation.n_rows;
        cause = fmt::format("nearly duplicate points (rows {} and {} have kernel correlation {:.12g})",
                            std::min(row, col), std::max(row, col), correlation(row, col));
    }
    return fmt::format("{}, or {}", cause.empty() ? std::string("an ill-conditioned kernel matrix") : cause,
                       lengthscale_clause);
}

}  // namespace

// Everything a GaussianProcess holds, and the algorithms on it; GaussianProcess only forwards, so
// the installed header shows none of it.
struct GaussianProcess::State {
    State(std::unique_ptr<Kernel> kernel, GpSettings settings);
    State(const State& other);
    State& operator=(const State&) = delete;

    std::size_t dim() const { return kernel_->dim(); }
    void check_targets(const arma::mat& points, const arma::vec& targets) const;
    // `release_old_first`: a large factor frees the old one before the new one is built (one n × n
    // matrix at a time), for callers that can rebuild it if this fails (condition()).
    void factorise(bool release_old_first = false);
    void update_weights();
    bool cached_prediction(const arma::mat& points, Posterior& posterior) const;
    // The cache's columns [first, last) of Vᵀ from those of K(Q, D) already copied there and the
    // columns before `first`; their squares added to the cache's row sums.
    void solve_cached_columns(std::size_t first, std::size_t last) const;
    void add_squares_of_cached_columns(std::size_t first, std::size_t last) const;
    // Mean and variance at the cached query points, from the cache brought up to date.
    void cached_posterior(Posterior& posterior) const;
    // The cache gains the one data point its column of K(Q, D) was just written for; the posterior
    // from the same pass.
    void append_cached_column(Posterior& posterior) const;
    // k(x, x) − ‖v‖² (latent, standardised) as a variance in the targets' units, rounding below 0 cut.
    arma::vec target_variance(arma::vec latent) const {
        latent.clamp(0.0, std::numeric_limits<double>::infinity());
        return latent * (scale_ * scale_);
    }

    void condition(const arma::mat& points, const arma::vec& targets);
    void append(const arma::mat& points, const arma::vec& targets);
    void truncate(std::size_t n);
    void refactorise();
    void set_noise_variance(double variance);
    Posterior predict(const arma::mat& points) const;
    PointPrediction predict_with_gradient(const arma::rowvec& x) const;
    arma::vec mean_gradient(const arma::rowvec& x) const;
    arma::mat mean_gradient_weights(const arma::rowvec& x) const;
    arma::mat gradient_covariance(const arma::rowvec& x) const;
    arma::mat gradient_covariance_with(const arma::rowvec& x, const arma::mat& extra) const;
    arma::vec gradient_trace_with_each(const arma::rowvec& x, const arma::mat& pending,
                                       const arma::mat& candidates) const;
    arma::mat solve(const arma::mat& rhs) const;
    double log_marginal_likelihood() const;
    arma::vec log_marginal_likelihood_gradient() const;

    // The posterior at one remembered set of query points (the sweep a BO loop scores every
    // iteration) is brought up to date in O(n·m) per appended point instead of recomputed in
    // O(n²·m): V = L⁻¹K(D, Q) only gains rows when the factor gains rows. The cache makes predict()
    // mutate state: one GP must not be predicted from two threads at once.
    // Stored transposed (one column per data point, spare columns after `rows`) so that a new
    // point is one column written in place, never a copy of the whole cache. The mean comes from
    // the same columns, as Vᵀβ (β = L⁻¹ỹ, as the point pool), so K(Q, D) itself is not kept.
    struct QueryCache {
        arma::mat points;     // m × d, compared bit for bit
        arma::mat prepared;   // detail::prepare_queries of the points, for the epoch's kernel
        arma::mat solved_t;   // m × capacity: (L⁻¹ K(D, Q))ᵀ in its first `rows` columns
        arma::vec prior;      // k(q, q)
        arma::vec explained;  // row sums of solved_t², over the first `rows` columns
        std::size_t rows = 0;
        std::uint64_t epoch = 0;
    };
    static constexpr std::size_t kMinimumCachedQueries = 32;  // single points never evict the sweep
    // Columns for n data points and a run of appends after them (as many again, at least 64): the
    // columns not yet written cost address space only (the allocator maps large blocks, and a page
    // is given memory when first written), and every growth copies the columns in use.
    static std::size_t cache_capacity(std::size_t n) { return n + std::max<std::size_t>(n, 64); }
    // Below this many observations a fresh solve of a small batch costs less than the point pool's
    // bookkeeping (hashing, lookups): with the pool at every size, gp-ucb's iterations at n = 50 and
    // 100 were slower than without it (apps/benchmarks/performance.py against the build before it).
    static constexpr std::size_t kPoolFromPoints = 128;
    // Up to this many data points a cache is solved by detail::solve_rows_from_right (64 rows × 64
    // columns of doubles: the L1 cache).
    static constexpr std::size_t kRowSolveOrder = 64;

    std::unique_ptr<Kernel> kernel_;
    GpSettings settings_;
    arma::mat points_;
    arma::vec targets_;
    arma::mat chol_;   // lower-triangular L with L Lᵀ = K + (σ² + jitter) I
    arma::vec alpha_;  // (K + σ²I)⁻¹ (y − offset) / scale
    arma::vec beta_;   // L⁻¹ (y − offset) / scale: the mean at q is vᵀβ with v = L⁻¹k(D, q)
    double offset_ = 0.0;
    double scale_ = 1.0;
    double jitter_ = 0.0;
    std::uint64_t epoch_ = 1;  // bumped by every full factorisation; a cache of another epoch is stale
    mutable QueryCache cache_;
    // Single points and small batches (DIRECT's centres) below kMinimumCachedQueries; not copied
    // with the GP (a cache, and up to PointPool::kPoolBytes).
    mutable detail::PointPool pool_;
};

GaussianProcess::State::State(std::unique_ptr<Kernel> kernel, GpSettings settings)
    : kernel_(std::move(kernel)), settings_(settings) {
    if (!kernel_) throw ValidationError(fmt::format("{}: no kernel given", kOwner));
    if (!std::isfinite(settings_.noise_variance) || settings_.noise_variance < 0.0) {
        throw ValidationError(fmt::format("{}: noise_variance = {} is not allowed; expected a finite value >= 0",
                                          kOwner, settings_.noise_variance));
    }
    if (!(settings_.jitter_start > 0.0) || !(settings_.jitter_max >= settings_.jitter_start) ||
        !std::isfinite(settings_.jitter_max)) {
        throw ValidationError(
            fmt::format("{}: jitter_start = {} and jitter_max = {} are not allowed; expected "
                        "0 < jitter_start <= jitter_max < inf",
                        kOwner, settings_.jitter_start, settings_.jitter_max));
    }
    points_.set_size(0, kernel_->dim());
}

GaussianProcess::State::State(const State& other)
    : kernel_(other.kernel_->clone()),
      settings_(other.settings_),
      points_(other.points_),
      targets_(other.targets_),
      chol_(leading_block(other.chol_, other.points_.n_rows)),
      alpha_(other.alpha_),
      beta_(other.beta_),
      offset_(other.offset_),
      scale_(other.scale_),
      jitter_(other.jitter_),
      epoch_(other.epoch_),
      cache_(other.cache_) {}

void GaussianProcess::State::check_targets(const arma::mat& points, const arma::vec& targets) const {
    if (points.n_cols != dim()) {
        throw ValidationError(fmt::format("{}: points have {} columns; the kernel was built for dimension {}", kOwner,
                                          points.n_cols, dim()));
    }
    if (points.n_rows != targets.n_elem) {
        throw ValidationError(fmt::format("{}: {} points but {} targets; expected one target per point", kOwner,
                                          points.n_rows, targets.n_elem));
    }
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        if (!std::isfinite(targets[i])) {
            throw ValidationError(fmt::format("{}: the target of point {} (x = {}) is {}; observations must be finite",
                                              kOwner, i, format_row(points.row(i)), targets[i]));
        }
        if (!points.row(i).is_finite()) {
            throw ValidationError(
                fmt::format("{}: point {} (x = {}) has a non-finite coordinate", kOwner, i, format_row(points.row(i))));
        }
    }
}

void GaussianProcess::State::factorise(bool release_old_first) {
    ++epoch_;
    if (points_.n_rows == 0) {
        chol_.reset();
        jitter_ = 0.0;
        return;
    }
    // Usually the first attempt (no jitter) works: factorise the Gram matrix in place and only
    // rebuild it for the jitter ladder when it does not.
    const arma::uword n = points_.n_rows;
    arma::mat factor;
    if (n >= kLargeFactor) {
        if (release_old_first) chol_.reset();
        factor.set_size(n + n / 4, n + n / 4);
        for (arma::uword first = 0; first < n; first += kGramColumnBlock) {
            const arma::uword last = std::min(n, first + kGramColumnBlock) - 1;
            factor.submat(0, first, n - 1, last) = kernel_->cross(points_, points_.rows(first, last));
        }
    } else {
        factor = kernel_->cross(points_, points_);
    }
    double diagonal_sum = 0.0;
    for (arma::uword i = 0; i < n; ++i) diagonal_sum += factor.at(i, i);
    const std::vector<double> ladder = jitter_ladder(settings_, diagonal_sum / static_cast<double>(n));
    for (arma::uword i = 0; i < n; ++i) factor.at(i, i) += settings_.noise_variance;
    if (cholesky_lower_in_place(factor, true, n)) {
        chol_ = std::move(factor);
        jitter_ = 0.0;
        return;
    }
    factor.reset();
    arma::mat gram = kernel_->cross(points_, points_);
    gram.diag() += settings_.noise_variance;
    const std::optional<double> jitter =
        factorise_with_jitter(gram, std::vector<double>(ladder.begin() + 1, ladder.end()), factor);
    if (!jitter) {
        throw RunError(
            fmt::format("{}: cannot factorise the {} × {} kernel matrix of the {} kernel plus noise "
                        "variance {:.3g}, even with jitter {:.3g} ({:g} × the mean of its diagonal). "
                        "Likely cause: {}",
                        kOwner, points_.n_rows, points_.n_rows, kernel_->describe(), settings_.noise_variance,
                        ladder.back(), settings_.jitter_max, likely_cause(points_, *kernel_)));
    }
    chol_ = std::move(factor);
    jitter_ = *jitter;
}

void GaussianProcess::State::update_weights() {
    const std::size_t n = points_.n_rows;
    offset_ = 0.0;
    scale_ = 1.0;
    if (n == 0) {
        alpha_.reset();
        beta_.reset();
        return;
    }
    if (settings_.mean == MeanFunction::Constant) offset_ = arma::mean(targets_);
    if (settings_.standardise && n >= 2) {
        // A constant target vector has no spread to divide by; it keeps scale 1.
        const double spread = arma::stddev(targets_);
        if (std::isfinite(spread) && spread > 0.0) scale_ = spread;
    }
    beta_ = (targets_ - offset_) / scale_;
    triangular_solve_in_place(chol_, beta_, false);
    alpha_ = beta_;
    triangular_solve_in_place(chol_, alpha_, true);
}

void GaussianProcess::State::condition(const arma::mat& points, const arma::vec& targets) {
    check_targets(points, targets);
    // Copied before anything is replaced: the arguments may be this GP's own points and targets.
    arma::mat kept_points = points;
    arma::vec kept_targets = targets;
    std::swap(points_, kept_points);
    std::swap(targets_, kept_targets);
    try {
        factorise(true);
    } catch (...) {
        std::swap(points_, kept_points);
        std::swap(targets_, kept_targets);
        // A large factorisation drops the old factor before building the new one (one n × n matrix
        // at a time); the old data factorised before, so they do again.
        if (chol_.is_empty() && points_.n_rows > 0) factorise();
        throw;
    }
    update_weights();
}

void GaussianProcess::State::append(const arma::mat& points, const arma::vec& targets) {
    check_targets(points, targets);
    const std::size_t added = points.n_rows;
    if (added == 0) return;
    const std::size_t n = points_.n_rows;
    if (n == 0) {
        condition(points, targets);
        return;
    }
    // New block of the factor: L21ᵀ = L11⁻¹ K12, L22 = chol(K22 + (σ² + jitter) I − L21 L21ᵀ), with the
    // jitter of the existing factor so that the whole factor stays the factor of one matrix.
    arma::mat cross_block = kernel_->cross(points_, points);  // n × k, becomes L21ᵀ
    triangular_solve_in_place(chol_, cross_block, false);
    arma::mat corner = kernel_->cross(points, points);
    corner.diag() += settings_.noise_variance + jitter_;
    corner -= cross_block.t() * cross_block;
    if (!cholesky_lower_in_place(corner)) {
        // The new points need more jitter than the factor was built with: only a full
        // factorisation can raise it consistently.
        const arma::mat all_points = arma::join_cols(points_, points);
        const arma::vec all_targets = arma::join_cols(targets_, targets);
        condition(all_points, all_targets);
        return;
    }
    // The factor keeps spare capacity (25 % or 32 rows, whichever is more) so that a run of appends
    // copies it only now and then, and appends after a truncate (fantasised points) not at all.
    const std::size_t required = n + added;
    if (chol_.n_rows < required) {
        const std::size_t capacity =
            std::max<std::size_t>(required, chol_.n_rows + std::max<std::size_t>(chol_.n_rows / 4, 32));
        arma::mat grown(capacity, capacity, arma::fill::none);  // pages are touched only when written
        grown.submat(0, 0, n - 1, n - 1) = chol_.submat(0, 0, n - 1, n - 1);
        chol_ = std::move(grown);
    }
    chol_.submat(n, 0, required - 1, n - 1) = cross_block.t();
    chol_.submat(0, n, n - 1, required - 1).zeros();
    chol_.submat(n, n, required - 1, required - 1) = corner;
    points_ = arma::join_cols(points_, points);
    targets_ = arma::join_cols(targets_, targets);
    update_weights();
}

void GaussianProcess::State::truncate(std::size_t n) {
    if (n > points_.n_rows) {
        throw ValidationError(fmt::format("{}: cannot truncate to {} points; it holds {}", kOwner, n, points_.n_rows));
    }
    if (n == points_.n_rows) return;
    // The leading block of a Cholesky factor is the factor of the leading block of the matrix; the
    // rest of chol_ stays as capacity for the next append.
    points_.resize(n, points_.n_cols);
    targets_.resize(n);
    // Cached rows past n belong to points that are gone; the next append reuses their indices.
    pool_.truncate(n);
    if (cache_.rows > n) {
        cache_.rows = n;
        cache_.explained = n == 0 ? arma::vec(cache_.solved_t.n_rows, arma::fill::zeros)
                                  : arma::vec(arma::sum(arma::square(cache_.solved_t.head_cols(n)), 1));
    }
    update_weights();
}

void GaussianProcess::State::refactorise() {
    factorise();
    update_weights();
}

void GaussianProcess::State::set_noise_variance(double variance) {
    if (!std::isfinite(variance) || variance < 0.0) {
        throw ValidationError(
            fmt::format("{}: noise_variance = {} is not allowed; expected a finite value >= 0", kOwner, variance));
    }
    settings_.noise_variance = variance;
}

Posterior GaussianProcess::State::predict(const arma::mat& points) const {
    if (points.n_cols != dim()) {
        throw ValidationError(fmt::format("{}: query points have {} columns; the kernel was built for dimension {}",
                                          kOwner, points.n_cols, dim()));
    }
    Posterior posterior;
    if (points_.n_rows == 0) {
        posterior.mean = arma::vec(points.n_rows, arma::fill::value(offset_));
        posterior.variance = kernel_->diagonal(points) * (scale_ * scale_);
        return posterior;
    }
    // The remembered set keeps its prior variances (cache_.prior).
    if (cached_prediction(points, posterior)) return posterior;
    posterior.variance = kernel_->diagonal(points);
    if (points.n_rows < kMinimumCachedQueries && points_.n_rows >= kPoolFromPoints) {
        arma::vec explained;
        arma::vec projected;
        pool_.evaluate(detail::PointPool::Factor{*kernel_, points_, chol_, beta_, epoch_}, points, explained,
                       projected);
        posterior.mean = offset_ + scale_ * projected;
        posterior.variance = target_variance(posterior.variance - explained);
        return posterior;
    }
    if (points.n_rows < kMinimumCachedQueries) {
        arma::mat cross_block = kernel_->cross(points_, points);  // n × m
        posterior.mean = offset_ + scale_ * (cross_block.t() * alpha_);
        // One triangular solve for every query point: V = L⁻¹ K(D, X*), var = k(x, x) − ‖v‖².
        triangular_solve_in_place(chol_, cross_block, false);
        posterior.variance = target_variance(posterior.variance - arma::sum(arma::square(cross_block), 0).t());
        return posterior;
    }
    // A set worth remembering is computed where the cache keeps it, one query point per row:
    // K(Q, D), then (L⁻¹K(D, Q))ᵀ = K(Q, D) L⁻ᵀ by one triangular solve from the right. No transposed
    // copies of m × n matrices (they were a fifth of PO-GP-UCB's modeler over 36 000 rows).
    const std::size_t n = points_.n_rows;
    const std::size_t m = points.n_rows;
    cache_.points = points;
    cache_.prior = posterior.variance;
    // The storage of the previous query set is kept while it holds n columns (a refit changes every
    // entry, not the shape; fresh pages are zero-filled by the kernel on first write).
    if (cache_.solved_t.n_rows != m || cache_.solved_t.n_cols < n) cache_.solved_t.set_size(m, cache_capacity(n));
    detail::prepare_queries(*kernel_, points, cache_.prepared);
    detail::cross_into(*kernel_, points, cache_.prepared, points_, cache_.solved_t.memptr());  // K(Q, D)
    solve_cached_columns(0, n);
    cache_.explained.zeros(m);
    add_squares_of_cached_columns(0, n);
    cache_.rows = n;
    cache_.epoch = epoch_;
    cached_posterior(posterior);
    return posterior;
}

void GaussianProcess::State::append_cached_column(Posterior& posterior) const {
    // One new data point r (a BO step): column r of Vᵀ is (k(Q, x_r) − Vᵀ₁ l)/L_rr with l the factor's
    // row r before its diagonal, and the mean is Vᵀβ; both products with Vᵀ₁ in one pass over it.
    const std::size_t m = cache_.solved_t.n_rows;
    const std::size_t r = cache_.rows;
    arma::vec correction(m);
    arma::vec projected(m);
    detail::two_products(cache_.solved_t.memptr(), m, r, chol_.memptr() + r, chol_.n_rows, beta_.memptr(),
                         correction.memptr(), projected.memptr());
    double* column = cache_.solved_t.colptr(r);
    const double diagonal = chol_.at(r, r);
    const double last_beta = beta_[r];
    double* explained = cache_.explained.memptr();
    for (std::size_t q = 0; q < m; ++q) {
        const double value = (column[q] - correction[q]) / diagonal;
        column[q] = value;
        explained[q] += value * value;
        projected[q] += value * last_beta;
    }
    cache_.rows = r + 1;
    posterior.mean = offset_ + scale_ * projected;
    posterior.variance = target_variance(cache_.prior - cache_.explained);
}

void GaussianProcess::State::cached_posterior(Posterior& posterior) const {
    // An alias of the first n columns: no copy of the cache in the hot path.
    const arma::mat solved(const_cast<double*>(cache_.solved_t.memptr()), cache_.solved_t.n_rows, points_.n_rows, false,
                           true);
    posterior.mean = offset_ + scale_ * (solved * beta_);
    posterior.variance = target_variance(cache_.prior - cache_.explained);
}

void GaussianProcess::State::solve_cached_columns(std::size_t first, std::size_t last) const {
    // Columns [first, last) of Vᵀ solve Vᵀ₂ L22ᵀ = K(Q, D2) − Vᵀ₁ L21ᵀ, D2 the data points
    // [first, last): the subtraction as one product into the block, then the solve in place.
    const auto m = static_cast<arma::blas_int>(cache_.solved_t.n_rows);
    const auto count = static_cast<arma::blas_int>(last - first);
    const auto stride = static_cast<arma::blas_int>(chol_.n_rows);
    double* block = cache_.solved_t.colptr(first);
    if (first > 0) {
        const char no = 'N';
        const char yes = 'T';
        const auto inner = static_cast<arma::blas_int>(first);
        const double minus_one = -1.0;
        const double one = 1.0;
        arma::blas::gemm(&no, &yes, &m, &count, &inner, &minus_one, cache_.solved_t.memptr(), &m,
                         chol_.memptr() + first, &stride, &one, block, &m);
    }
    if (first == 0 && last <= kRowSolveOrder) {
        // The whole cache of a small GP (a new query set or a refit): our row-vectorised substitution,
        // a block's solved columns in the L1 cache — faster than OpenBLAS's dtrsm there (a quarter
        // less at 55 points and 36 000 queries), slower past it (at 200 points and 400 queries).
        detail::solve_rows_from_right(chol_.memptr(), chol_.n_rows, count, block, cache_.solved_t.n_rows);
        return;
    }
    detail::solve_rows_with_lower_transposed(chol_.memptr() + first + first * chol_.n_rows, stride, block, m, count, m);
}

void GaussianProcess::State::add_squares_of_cached_columns(std::size_t first, std::size_t last) const {
    const std::size_t m = cache_.solved_t.n_rows;
    double* explained = cache_.explained.memptr();
    for (std::size_t k = first; k < last; ++k) {
        const double* column = cache_.solved_t.colptr(k);
        for (std::size_t q = 0; q < m; ++q) explained[q] += column[q] * column[q];
    }
}

bool GaussianProcess::State::cached_prediction(const arma::mat& points, Posterior& posterior) const {
    if (cache_.epoch != epoch_ || cache_.rows > points_.n_rows || points.n_rows != cache_.points.n_rows ||
        points.n_cols != cache_.points.n_cols || points.n_rows == 0 ||
        std::memcmp(points.memptr(), cache_.points.memptr(), points.n_elem * sizeof(double)) != 0) {
        return false;
    }
    const std::size_t n = points_.n_rows;
    const std::size_t r = cache_.rows;
    if (n > r) {
        if (cache_.solved_t.n_cols < n) {
            // Only the columns in use are copied: resize() would also zero-fill the new ones, every
            // page of them (a twentieth of PO-GP-UCB's run over 36 000 rows).
            arma::mat grown(points.n_rows, cache_capacity(n), arma::fill::none);
            std::copy_n(cache_.solved_t.memptr(), points.n_rows * r, grown.memptr());
            cache_.solved_t.steal_mem(grown);
        }
        detail::cross_into(*kernel_, points, cache_.prepared, points_.rows(r, n - 1), cache_.solved_t.colptr(r));
        if (n == r + 1) {
            append_cached_column(posterior);
            return true;
        }
        solve_cached_columns(r, n);
        add_squares_of_cached_columns(r, n);
        cache_.rows = n;
    }
    cached_posterior(posterior);
    return true;
}

GaussianProcess::PointPrediction GaussianProcess::State::predict_with_gradient(const arma::rowvec& x) const {
    if (x.n_elem != dim()) {
        throw ValidationError(fmt::format("{}: the point has {} coordinates; expected {}", kOwner, x.n_elem, dim()));
    }
    const arma::mat single = x;
    PointPrediction prediction;
    const double prior_variance = kernel_->diagonal(single)[0];
    // d/dx k(x, x) = 2 ∂₁k(x, x) for a symmetric kernel (zero for stationary ones).
    arma::rowvec prior_variance_gradient = 2.0 * kernel_->cross_gradient(x, single).t();
    if (points_.n_rows == 0) {
        prediction.mean = offset_;
        prediction.variance = scale_ * scale_ * prior_variance;
        prediction.mean_gradient.zeros(dim());
        prediction.variance_gradient = scale_ * scale_ * prior_variance_gradient;
        return prediction;
    }
    arma::mat k = kernel_->cross(points_, single);                   // n × 1
    const arma::mat gradient = kernel_->cross_gradient(x, points_);  // d × n
    prediction.mean = offset_ + scale_ * arma::dot(k, alpha_);
    prediction.mean_gradient = scale_ * (gradient * alpha_).t();
    triangular_solve_in_place(chol_, k, false);  // v = L⁻¹ k
    prediction.variance = scale_ * scale_ * std::max(0.0, prior_variance - arma::dot(k, k));
    triangular_solve_in_place(chol_, k, true);  // (K + σ²I)⁻¹ k
    prediction.variance_gradient = scale_ * scale_ * (prior_variance_gradient - 2.0 * (gradient * k).t());
    return prediction;
}

arma::vec GaussianProcess::State::mean_gradient(const arma::rowvec& x) const {
    if (points_.n_rows == 0) {
        if (x.n_elem != dim()) {
            throw ValidationError(
                fmt::format("{}: the point has {} coordinates; expected {}", kOwner, x.n_elem, dim()));
        }
        return arma::zeros(dim());
    }
    return scale_ * (kernel_->cross_gradient(x, points_) * alpha_);
}

arma::mat GaussianProcess::State::mean_gradient_weights(const arma::rowvec& x) const {
    // With y = offset + scale·g, ∇m = scale ∇k α = ∇k (K + σ²I)⁻¹ (y − offset): no scale in A.
    arma::mat weights = gradient_columns(*kernel_, x, points_);  // n × d
    cholesky_solve_in_place(chol_, weights);
    return weights.t();
}

arma::mat GaussianProcess::State::gradient_covariance(const arma::rowvec& x) const {
    arma::mat covariance = kernel_->gradient_prior_covariance(x);
    if (points_.n_rows > 0) {
        arma::mat projected = gradient_columns(*kernel_, x, points_);  // n × d
        triangular_solve_in_place(chol_, projected, false);
        covariance -= projected.t() * projected;
    }
    covariance *= scale_ * scale_;
    return 0.5 * (covariance + covariance.t());
}

arma::mat GaussianProcess::State::gradient_covariance_with(const arma::rowvec& x, const arma::mat& extra) const {
    if (extra.n_rows == 0) return gradient_covariance(x);
    if (extra.n_cols != dim()) {
        throw ValidationError(fmt::format("{}: extra points have {} columns; the kernel was built for dimension {}",
                                          kOwner, extra.n_cols, dim()));
    }
    // The factor of [D; E] differs from L only in its last block row: L21ᵀ = L⁻¹ K(D, E) and
    // L22 = chol(K(E, E) + (σ² + jitter) I − L21 L21ᵀ). Forward substitution with that block
    // factor splits ‖[L; L21 L22]⁻¹ ∇k(D ∪ E, x)ᵀ‖² into the existing part V1 and the new part V2.
    arma::mat projected = gradient_columns(*kernel_, x, points_);  // n × d, becomes V1
    arma::mat cross_block = kernel_->cross(points_, extra);        // n × k, becomes L21ᵀ
    triangular_solve_in_place(chol_, projected, false);
    triangular_solve_in_place(chol_, cross_block, false);
    arma::mat corner = kernel_->cross(extra, extra);
    const double diagonal_mean = arma::mean(corner.diag());
    corner.diag() += settings_.noise_variance + jitter_;
    corner -= cross_block.t() * cross_block;
    // Hypothetical points may coincide with data or with each other; a little extra jitter on this
    // block only (the existing factor is not touched) keeps the criterion defined.
    arma::mat corner_factor;
    if (!factorise_with_jitter(corner, jitter_ladder(settings_, diagonal_mean), corner_factor)) {
        throw RunError(fmt::format(
            "{}: cannot add the {} extra points to the factor even with jitter {:g} × the mean "
            "of their kernel diagonal. Likely cause: {}",
            kOwner, extra.n_rows, settings_.jitter_max, likely_cause(arma::join_cols(points_, extra), *kernel_)));
    }
    arma::mat added = kernel_->cross_gradient(x, extra).t();  // k × d, becomes V2
    added -= cross_block.t() * projected;
    triangular_solve_in_place(corner_factor, added, false);
    arma::mat covariance = kernel_->gradient_prior_covariance(x);
    if (points_.n_rows > 0) covariance -= projected.t() * projected;
    covariance -= added.t() * added;
    covariance *= scale_ * scale_;
    return 0.5 * (covariance + covariance.t());
}

arma::vec GaussianProcess::State::gradient_trace_with_each(const arma::rowvec& x, const arma::mat& pending,
                                                           const arma::mat& candidates) const {
    if (candidates.n_cols != dim() || (pending.n_rows > 0 && pending.n_cols != dim())) {
        throw ValidationError(
            fmt::format("{}: candidates have {} columns and pending points {}; the kernel was "
                        "built for dimension {}",
                        kOwner, candidates.n_cols, pending.n_cols, dim()));
    }
    // Forward substitution with the block factor of [D; P; z] (the pending block as in
    // gradient_covariance_with): G_D = L⁻¹ ∇k(D, x)ᵀ and G_P = Lp⁻¹(∇k(P, x)ᵀ − Bᵀ G_D) once; per
    // candidate its solved column w of k(D ∪ P, z), the Schur complement s = k(z, z) + σ² − ‖w‖² and
    // c = ∇k(z, x) − Gᵀw, which takes ‖c‖²/s off the trace.
    arma::mat projected = gradient_columns(*kernel_, x, points_);  // n × d: G_D
    triangular_solve_in_place(chol_, projected, false);
    arma::mat solved = kernel_->cross(points_, candidates);  // n × m: W_D
    triangular_solve_in_place(chol_, solved, false);
    arma::mat cross = kernel_->cross_gradient(x, candidates).t();  // m × d
    // With no data every D-block is empty; BLAS refuses products with a zero leading dimension.
    const bool has_data = points_.n_rows > 0;
    if (has_data) cross -= solved.t() * projected;
    arma::vec schur = kernel_->diagonal(candidates) + settings_.noise_variance + jitter_;
    if (has_data) schur -= arma::sum(arma::square(solved), 0).t();
    double base = arma::trace(kernel_->gradient_prior_covariance(x));
    if (has_data) base -= arma::accu(arma::square(projected));
    if (pending.n_rows > 0) {
        arma::mat pending_block = kernel_->cross(points_, pending);  // n × p: Bᵀ
        triangular_solve_in_place(chol_, pending_block, false);
        arma::mat corner = kernel_->cross(pending, pending);
        const double diagonal_mean = arma::mean(corner.diag());
        corner.diag() += settings_.noise_variance + jitter_;
        if (has_data) corner -= pending_block.t() * pending_block;
        arma::mat corner_factor;
        bool factorised = false;
        for (double extra_jitter : jitter_ladder(settings_, diagonal_mean)) {
            corner_factor = corner;
            if (extra_jitter > 0.0) corner_factor.diag() += extra_jitter;
            if (cholesky_lower_in_place(corner_factor)) {
                factorised = true;
                break;
            }
        }
        if (!factorised) {
            throw RunError(
                fmt::format("{}: cannot add the {} pending points to the factor even with jitter {:g} × "
                            "the mean of their kernel diagonal. Likely cause: {}",
                            kOwner, pending.n_rows, settings_.jitter_max,
                            likely_cause(arma::join_cols(points_, pending), *kernel_)));
        }
        arma::mat pending_projected = kernel_->cross_gradient(x, pending).t();  // p × d: G_P
        if (has_data) pending_projected -= pending_block.t() * projected;
        triangular_solve_in_place(corner_factor, pending_projected, false);
        arma::mat pending_solved = kernel_->cross(pending, candidates);  // p × m: W_P
        if (has_data) pending_solved -= pending_block.t() * solved;
        triangular_solve_in_place(corner_factor, pending_solved, false);
        cross -= pending_solved.t() * pending_projected;
        schur -= arma::sum(arma::square(pending_solved), 0).t();
        base -= arma::accu(arma::square(pending_projected));
    }
    // A candidate on top of the data needs the jitter a factorisation of its 1 × 1 block would add.
    const arma::vec prior_variance = kernel_->diagonal(candidates);
    for (arma::uword i = 0; i < schur.n_elem; ++i) {
        if (schur(i) > 0.0) continue;
        for (double extra_jitter : jitter_ladder(settings_, prior_variance(i))) {
            if (schur(i) + extra_jitter > 0.0) {
                schur(i) += extra_jitter;
                break;
            }
        }
        if (!(schur(i) > 0.0)) {
            throw RunError(fmt::format("{}: cannot add candidate {} to the factor even with jitter; likely cause: {}",
                                       kOwner, i, likely_cause(arma::join_cols(points_, candidates.row(i)), *kernel_)));
        }
    }
    return scale_ * scale_ * (base - arma::sum(arma::square(cross), 1) / schur);
}

arma::mat GaussianProcess::State::solve(const arma::mat& rhs) const {
    if (rhs.n_rows != points_.n_rows) {
        throw ValidationError(
            fmt::format("{}: the right-hand side has {} rows; expected {}", kOwner, rhs.n_rows, points_.n_rows));
    }
    arma::mat result = rhs;
    cholesky_solve_in_place(chol_, result);
    return result;
}

double GaussianProcess::State::log_marginal_likelihood() const {
    if (points_.n_rows == 0) return 0.0;
    return log_likelihood_from_factor(chol_, (targets_ - offset_) / scale_, alpha_);
}

arma::vec GaussianProcess::State::log_marginal_likelihood_gradient() const {
    if (points_.n_rows == 0) return arma::zeros(kernel_->log_hyperparameters().n_elem + 1);
    std::vector<arma::mat> storage;
    LikelihoodWorkspace workspace(storage);
    detail::gram_with_slope(*kernel_, points_, workspace.gram(), workspace.slope());
    workspace.weights() = leading_block(chol_, points_.n_rows);
    return likelihood_gradient_from_factor(*kernel_, points_, workspace.weights(), alpha_, settings_.noise_variance,
                                           workspace);
}

// The public interface: construction, copies and forwarding to State.

GaussianProcess::GaussianProcess(std::unique_ptr<Kernel> kernel, GpSettings settings)
    : state_(std::make_unique<State>(std::move(kernel), settings)) {}

GaussianProcess::GaussianProcess(const GaussianProcess& other) : state_(std::make_unique<State>(*other.state_)) {}

GaussianProcess& GaussianProcess::operator=(const GaussianProcess& other) {
    if (this != &other) state_ = std::make_unique<State>(*other.state_);
    return *this;
}

GaussianProcess::GaussianProcess(GaussianProcess&&) noexcept = default;
GaussianProcess& GaussianProcess::operator=(GaussianProcess&&) noexcept = default;
GaussianProcess::~GaussianProcess() = default;

void GaussianProcess::condition(const arma::mat& points, const arma::vec& targets) {
    state_->condition(points, targets);
}
void GaussianProcess::append(const arma::mat& points, const arma::vec& targets) { state_->append(points, targets); }
void GaussianProcess::truncate(std::size_t n) { state_->truncate(n); }
void GaussianProcess::refactorise() { state_->refactorise(); }

std::size_t GaussianProcess::size() const { return state_->points_.n_rows; }
std::size_t GaussianProcess::dim() const { return state_->dim(); }
const arma::mat& GaussianProcess::points() const { return state_->points_; }
const arma::vec& GaussianProcess::targets() const { return state_->targets_; }
const Kernel& GaussianProcess::kernel() const { return *state_->kernel_; }
Kernel& GaussianProcess::kernel() { return *state_->kernel_; }
const GpSettings& GaussianProcess::settings() const { return state_->settings_; }
void GaussianProcess::set_noise_variance(double variance) { state_->set_noise_variance(variance); }
double GaussianProcess::noise_variance() const { return state_->settings_.noise_variance; }
double GaussianProcess::jitter() const { return state_->jitter_; }
double GaussianProcess::target_offset() const { return state_->offset_; }
double GaussianProcess::target_scale() const { return state_->scale_; }

Posterior GaussianProcess::predict(const arma::mat& points) const { return state_->predict(points); }
GaussianProcess::PointPrediction GaussianProcess::predict_with_gradient(const arma::rowvec& x) const {
    return state_->predict_with_gradient(x);
}
arma::vec GaussianProcess::mean_gradient(const arma::rowvec& x) const { return state_->mean_gradient(x); }
arma::mat GaussianProcess::mean_gradient_weights(const arma::rowvec& x) const {
    return state_->mean_gradient_weights(x);
}
arma::mat GaussianProcess::gradient_covariance(const arma::rowvec& x) const { return state_->gradient_covariance(x); }
arma::mat GaussianProcess::gradient_covariance_with(const arma::rowvec& x, const arma::mat& extra) const {
    return state_->gradient_covariance_with(x, extra);
}
arma::vec GaussianProcess::gradient_trace_with_each(const arma::rowvec& x, const arma::mat& pending,
                                                    const arma::mat& candidates) const {
    return state_->gradient_trace_with_each(x, pending, candidates);
}
arma::mat GaussianProcess::solve(const arma::mat& rhs) const { return state_->solve(rhs); }
double GaussianProcess::log_marginal_likelihood() const { return state_->log_marginal_likelihood(); }
arma::vec GaussianProcess::log_marginal_likelihood_gradient() const {
    return state_->log_marginal_likelihood_gradient();
}

namespace detail {

// For the hyperparameter fit: log p(y | X, θ) (and its gradient) at the kernel's and the noise's
// current values, from one pass of the kernel over the data, in storage the caller keeps across
// evaluations. refactorise() followed by log_marginal_likelihood_gradient() would evaluate the
// kernel twice and allocate afresh, and this is the fit's inner loop. The GP's own factor is left
// as it is (stale until the fit refactorises at the optimum). Throws RunError when the matrix
// cannot be factorised.
double log_marginal_likelihood_at_current(const GaussianProcess& gp, arma::vec* gradient,
                                          std::vector<arma::mat>& storage) {
    const arma::mat& points = gp.points();
    if (points.n_rows == 0) {
        if (gradient != nullptr) gradient->zeros(gp.kernel().log_hyperparameters().n_elem + 1);
        return 0.0;
    }
    LikelihoodWorkspace workspace(storage);
    gram_with_slope(gp.kernel(), points, workspace.gram(), workspace.slope());
    arma::mat& gram = workspace.gram();
    const std::vector<double> ladder = jitter_ladder(gp.settings(), arma::mean(gram.diag()));
    bool factorised = false;
    for (double jitter : ladder) {
        workspace.factor() = gram;
        workspace.factor().diag() += gp.noise_variance() + jitter;
        if (cholesky_lower_in_place(workspace.factor(), false)) {
            factorised = true;
            break;
        }
    }
    if (!factorised) {
        throw RunError(fmt::format("{}: the kernel matrix is not positive definite at these hyperparameters", kOwner));
    }
    // Offset and scale depend on the targets only, so the GP's current values hold.
    const arma::vec centred = (gp.targets() - gp.target_offset()) / gp.target_scale();
    arma::vec alpha = centred;
    cholesky_solve_in_place(workspace.factor(), alpha);
    const double value = log_likelihood_from_factor(workspace.factor(), centred, alpha);
    if (gradient != nullptr) {
        // The factor is not needed after this: the gradient overwrites it with its weights.
        *gradient = likelihood_gradient_from_factor(gp.kernel(), points, workspace.factor(), alpha, gp.noise_variance(),
                                                    workspace);
    }
    return value;
}

}  // namespace detail

}  // namespace dpbo::gp
