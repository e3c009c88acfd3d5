// A fixed sample from a Gaussian-process prior (squared-exponential kernel) with a known optimum,
// for regret curves. Two forms share the parameters:
//  - continuous (grid = 0), GIBO's synthetic objectives (Müller et al. 2021, sarmueller/gibo):
//    prior values at `support_points` uniform points of the box; the objective is the GP posterior
//    mean through them — smooth, one cross-kernel product per batch, analytic gradient. Its optimum
//    is estimated once, by multi-start L-BFGS;
//  - grid (grid = g ≥ 2), PO-GP-UCB's synthetic GP (Kharkovskii et al. 2020, §4): an exact prior
//    sample at the g^dim points of a regular grid, which is then the (finite) search space; the
//    optimum is exact.
// The seed fixes the function: it is data, not run randomness. Holds no sensitive data.
//
// Draws from ExperimentRng(seed), in this order (tests rebuild the sample from it):
//   1. if lengthscale_spread γ > 0: dim uniforms u_k, and ℓ_k = ℓ (1 + γ (2 u_k − 1));
//   2. continuous: uniform(support_points, dim) mapped to the box, then normal(support_points, 1);
//      grid: normal(g^dim, 1), dimension 1 varying fastest.
// The prior sample is L z with L the lower Cholesky factor of the covariance (see
// jittered_lower_cholesky for when jitter is added).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlopt.h>

#include "dpbo/errors.hpp"
#include "memory_bound.hpp"
#include "dpbo/gp/gaussian_process.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'synthetic-gp'";
constexpr double kSmallestLengthscale = 1e-150;

// GPyTorch's GaussianLikelihood starts its noise at softplus(0) + 1e-4 = ln 2 + 1e-4, and the GIBO
// reference builds its objectives without setting it, so its posterior mean smooths the support
// values with this noise variance.
constexpr double kReferenceSupportNoiseVariance = std::numbers::ln2 + 1e-4;
constexpr std::int64_t kReferenceSupportPoints = 1000;
constexpr std::int64_t kMaxSupportPoints = 5000;  // the n×n factorisations stay within seconds
constexpr std::uint64_t kMaxGridPoints = 4'000'000;

// Jitter for the prior-sample factorisation, relative to the mean prior variance.
constexpr double kJitterStart = 1e-12;
constexpr double kJitterMax = 1e-4;

// A grid point may be given with this much rounding (in grid steps), e.g. after a text round trip.
constexpr double kGridTolerance = 1e-6;

// Rows per cross-kernel block, so a large batch never builds a huge b×n matrix at once.
constexpr arma::uword kChunkRows = 2048;

// The optimum search: a fixed seed keeps the estimate a property of the function alone.
constexpr std::uint64_t kOptimumSearchSeed = 0x5eed0b7eULL;
constexpr std::size_t kSweepPoints = 16384;
constexpr std::size_t kLocalStarts = 32;
constexpr int kLocalEvaluations = 1000;

// GIBO's length-scale rule. δ(d) approximates the mean distance between two uniform points of
// [0,1]^d; the reference scales Hennig's 0.1 at d = 2 by δ(d)/δ(2) and by its factor_lengthscale 2.
double mean_unit_cube_distance(double d) {
    return std::sqrt(d / 6.0) * std::sqrt((1.0 + 2.0 * std::sqrt(1.0 - 3.0 / (5.0 * d))) / 3.0);
}

double reference_lengthscale(std::size_t dim, double width) {
    return 2.0 * 0.1 * mean_unit_cube_distance(static_cast<double>(dim)) / mean_unit_cube_distance(2.0) * width;
}

// Lower Cholesky factor of a covariance. Smooth kernels on dense point sets are numerically
// singular, so the smallest jitter (0, then kJitterStart × the mean variance, ×10 each time) that
// lets the factorisation succeed is added: the sample then carries white noise of that variance.
arma::mat jittered_lower_cholesky(const arma::mat& covariance, const std::string& what) {
    arma::mat shifted = arma::symmatl(covariance);
    const double scale = arma::mean(shifted.diag());
    arma::mat factor;
    double jitter = 0.0;
    while (!arma::chol(factor, shifted, "lower")) {
        const double next = jitter == 0.0 ? kJitterStart : 10.0 * jitter;
        if (next > kJitterMax) {
            throw dpbo::RunError(
                fmt::format("{}: the prior covariance of {} cannot be factorised even with jitter {} × its "
                            "mean variance; the points are too dense for the length-scale (use fewer points "
                            "or a shorter lengthscale)",
                            kOwner, what, kJitterMax));
        }
        shifted.diag() += (next - jitter) * scale;
        jitter = next;
    }
    return factor;
}

// Applies L_1 ⊗ … ⊗ L_d to values laid out with dimension 1 varying fastest, without forming the
// product: each step multiplies the leading mode and rotates it to the back, so after d steps the
// original order is restored. Cost d·g·g^d instead of g^(2d).
arma::vec apply_kronecker_factors(const std::vector<arma::mat>& factors, arma::vec values) {
    const arma::uword levels = factors.front().n_rows;
    const arma::uword rest = values.n_elem / levels;
    for (const arma::mat& factor : factors) {
        const arma::mat product = factor * arma::reshape(values, levels, rest);
        values = arma::vectorise(product.t());
    }
    return values;
}

std::string describe_lengthscales(const arma::vec& lengthscales) {
    if (lengthscales.n_elem == 1) return fmt::format("length-scale {:.6g}", lengthscales(0));
    return fmt::format("length-scales ({:.6g})",
                       fmt::join(arma::conv_to<std::vector<double>>::from(lengthscales), ", "));
}

struct LocalSearch {
    const dpbo::gp::Kernel* kernel = nullptr;
    const arma::mat* support = nullptr;
    const arma::vec* weights = nullptr;
    double sign = 1.0;  // NLopt minimises sign·f
    nlopt_opt optimiser = nullptr;
    std::string failure;
};

// NLopt's C callback: exceptions must not cross it, so a failure stops the search and is rethrown.
double signed_posterior_mean(unsigned n, const double* x, double* gradient, void* data) {
    auto& search = *static_cast<LocalSearch*>(data);
    try {
        const arma::rowvec point(x, n);
        const double value = arma::as_scalar(search.kernel->cross(point, *search.support) * *search.weights);
        if (gradient != nullptr) {
            const arma::vec slope = search.kernel->cross_gradient(point, *search.support) * *search.weights;
            for (unsigned j = 0; j < n; ++j) gradient[j] = search.sign * slope(j);
        }
        return search.sign * value;
    } catch (const std::exception& error) {
        search.failure = error.what();
        nlopt_force_stop(search.optimiser);
        return std::numeric_limits<double>::quiet_NaN();
    }
}

class SyntheticGp : public dpbo::Objective,
                    public dpbo::ObservationNoise,
                    public dpbo::HasKnownOptimum,
                    public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 10, .lower = 1, .doc = "number of dimensions"})
            .real("lower", {.fallback = 0.0, .doc = "lower bound of every coordinate"})
            .real("upper", {.fallback = 1.0, .doc = "upper bound of every coordinate"})
            .real("lengthscale", {.lower = 0.0,
                                  .lower_inclusive = false,
                                  .doc = "squared-exponential length-scale ℓ (absent: GIBO's rule "
                                         "ℓ = 0.2·δ(dim)/δ(2)·(upper − lower) with δ(d) = √(d/6)·√((1 + "
                                         "2√(1 − 3/(5d)))/3), the approximate mean distance in the unit cube: "
                                         "0.4689 at dim 10, 0.6666 at 20, 1.0572 at 50 on [0, 1])"})
            .real("lengthscale_spread", {.fallback = 0.0,
                                         .lower = 0.0,
                                         .upper = 1.0,
                                         .upper_inclusive = false,
                                         .doc = "γ: per-dimension length-scales ℓ·(1 + γ·(2u − 1)), u uniform, drawn "
                                                "with the seed (0: isotropic; GIBO's data uses 0.3)"})
            .real(
                "signal_variance",
                {.fallback = 1.0, .lower = 0.0, .lower_inclusive = false, .doc = "prior variance σ_f² of the function"})
            .integer("support_points", {.fallback = kReferenceSupportPoints,
                                        .lower = 1,
                                        .upper = kMaxSupportPoints,
                                        .doc = "continuous form: number of uniform points carrying the prior "
                                               "sample (GIBO: 1000)"})
            .real("support_noise_variance",
                  {.fallback = kReferenceSupportNoiseVariance,
                   .lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "continuous form: noise variance of the posterior mean through the "
                          "support values (default ln 2 + 1e-4, GPyTorch's initial noise that "
                          "GIBO's objectives keep; 1e-10 interpolates the prior sample)"})
            .integer("grid", {.fallback = 0,
                              .lower = 0,
                              .doc = "0: continuous form; g ≥ 2: exact sample on the g^dim grid points "
                                     "of the box, which become the search space (g^dim ≤ 4000000)"})
            .integer("seed", {.fallback = 0, .lower = 0, .doc = "fixes the function (it is data, not run randomness)"})
            .choice("sense", {"maximise", "minimise"}, "maximise",
                    "whether the function is maximised (as in GIBO and PO-GP-UCB) or minimised");
        dpbo::add_noise_parameter(schema, "GIBO's noise variance 0.01 is noise_stddev 0.1");
        return schema;
    }

    explicit SyntheticGp(const dpbo::ParameterSet& parameters)
        : dim_(static_cast<std::size_t>(parameters.integer("dim"))),
          lower_(parameters.real("lower")),
          upper_(parameters.real("upper")),
          signal_variance_(parameters.real("signal_variance")),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))),
          noise_stddev_(parameters.real("noise_stddev")),
          sense_(parameters.text("sense") == "minimise" ? dpbo::Sense::Minimise : dpbo::Sense::Maximise),
          grid_(checked_grid(parameters)) {
        if (!std::isfinite(lower_) || !std::isfinite(upper_) || !(lower_ < upper_)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: lower = {} and upper = {} are not allowed; need finite lower < upper", kOwner, lower_, upper_));
        }
        if (grid_ == 0) require_continuous_memory(parameters);
        dpbo::ExperimentRng rng(seed_);
        lengthscales_ = draw_lengthscales(parameters, rng);
        if (grid_ > 0) {
            build_grid_sample(rng);
        } else {
            build_continuous_sample(parameters, rng);
        }
    }

    // The continuous form is a box, the grid form a finite set with FiniteCandidates.
    static std::unique_ptr<dpbo::Module> create(const dpbo::ParameterSet& parameters);

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }
    dpbo::Sense sense() const override { return sense_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != dim_) {
            throw dpbo::RunError(fmt::format("{}: points have {} columns; dim = {}", kOwner, points.n_cols, dim_));
        }
        dpbo::Evaluations result;
        result.points = points;
        if (grid_ > 0) {
            result.candidate_rows = grid_rows(points);
            result.values = grid_values_.elem(result.candidate_rows);
        } else {
            result.values = posterior_mean(points);
        }
        return result;
    }

    // Grid form: the exact optimum over the grid. Continuous form: the best local optimum found by
    // multi-start L-BFGS (an estimate; the true global optimum may exceed it slightly), so regret
    // is measured against that point.
    std::optional<dpbo::KnownOptimum> known_optimum() const override { return optimum_; }

    std::string data_description() const override { return description_; }

private:
    static std::size_t checked_grid(const dpbo::ParameterSet& parameters) {
        const std::int64_t grid = parameters.integer("grid");
        const std::int64_t dim = parameters.integer("dim");
        if (grid == 0) return 0;
        if (grid == 1) {
            throw dpbo::ValidationError(
                fmt::format("{}: grid = 1 is not allowed; use 0 (continuous form) or at least 2 levels per "
                            "dimension",
                            kOwner));
        }
        for (const char* key : {"support_points", "support_noise_variance"}) {
            if (parameters.given_by_user(key)) {
                throw dpbo::ValidationError(
                    fmt::format("{}: {} only applies to the continuous form (grid = 0), but grid = {}; drop "
                                "{} or set grid = 0",
                                kOwner, key, grid, key));
            }
        }
        std::uint64_t count = 1;
        for (std::int64_t k = 0; k < dim; ++k) {
            count *= static_cast<std::uint64_t>(grid);
            if (count > kMaxGridPoints) {
                throw dpbo::ValidationError(
                    fmt::format("{}: grid = {} and dim = {} give more than {} grid points (grid^dim); lower "
                                "grid or dim",
                                kOwner, grid, dim, kMaxGridPoints));
            }
        }
        return static_cast<std::size_t>(grid);
    }

    arma::vec draw_lengthscales(const dpbo::ParameterSet& parameters, dpbo::ExperimentRng& rng) {
        const double base = parameters.has("lengthscale") ? parameters.real("lengthscale")
                                                          : reference_lengthscale(dim_, upper_ - lower_);
        const double spread = parameters.real("lengthscale_spread");
        // 1/ℓ² enters the kernel: below 1e-150 it overflows and every value was NaN. The smallest ℓ a
        // spread can draw is base·(1 − γ).
        const double smallest = base * (1.0 - spread);
        if (!(smallest >= kSmallestLengthscale)) {
            throw dpbo::ValidationError(
                parameters.has("lengthscale")
                    ? fmt::format("{}: lengthscale = {} (with lengthscale_spread = {}) can give length-scales below "
                                  "{:g}, where 1/ℓ² overflows the double range; allowed: lengthscale·(1 − "
                                  "lengthscale_spread) >= {:g}",
                                  kOwner, base, spread, kSmallestLengthscale, kSmallestLengthscale)
                    : fmt::format("{}: lower = {} and upper = {} are so close that the default length-scale, "
                                  "proportional to upper − lower, is {:.6g}, below {:g}, where 1/ℓ² overflows the "
                                  "double range; allowed: a wider box, or lengthscale >= {:g}",
                                  kOwner, lower_, upper_, base, kSmallestLengthscale, kSmallestLengthscale));
        }
        if (spread == 0.0) return arma::vec{base};
        return base * (1.0 + spread * (2.0 * rng.uniform(dim_, 1) - 1.0));
    }

    arma::vec lengthscale_per_dimension() const {
        return lengthscales_.n_elem == 1 ? arma::vec(dim_, arma::fill::value(lengthscales_(0))) : lengthscales_;
    }

    std::unique_ptr<dpbo::gp::Kernel> make_se_kernel(std::size_t dim, const arma::vec& lengthscales,
                                                     double signal_variance) const {
        dpbo::gp::KernelSpec spec;
        spec.family = dpbo::gp::KernelFamily::SquaredExponential;
        spec.dim = dim;
        spec.lengthscales = lengthscales;
        spec.signal_variance = signal_variance;
        return dpbo::gp::make_kernel(spec);
    }

    // The continuous form holds the support inputs (support_points × dim, and the uniform draw they
    // come from) and the support kernel matrix with its Cholesky factor (support_points² each) at
    // once. (The grid form is bounded by g^dim ≤ 4000000 in checked_grid.)
    void require_continuous_memory(const dpbo::ParameterSet& parameters) const {
        const auto count = static_cast<double>(parameters.integer("support_points"));
        const double dim = static_cast<double>(dim_);
        dpbo::memory::require(kOwner, fmt::format("dim = {} with support_points = {}", dim_, count),
                              8.0 * (2.0 * count * dim + 2.0 * count * count),
                              "the support inputs and their kernel matrix");
    }

    void build_continuous_sample(const dpbo::ParameterSet& parameters, dpbo::ExperimentRng& rng) {
        const auto count = static_cast<arma::uword>(parameters.integer("support_points"));
        const double support_noise_variance = parameters.real("support_noise_variance");
        space_ = dpbo::SearchSpace::uniform_box(dim_, lower_, upper_);
        support_ = lower_ + (upper_ - lower_) * rng.uniform(count, dim_);
        const arma::vec standard_normals = rng.normal(count, 1);

        kernel_ = make_se_kernel(dim_, lengthscales_, signal_variance_);
        const arma::vec prior_values =
            jittered_lower_cholesky(kernel_->cross(support_, support_), fmt::format("{} support points", count)) *
            standard_normals;

        dpbo::gp::GpSettings settings;
        settings.noise_variance = support_noise_variance;
        dpbo::gp::GaussianProcess posterior(kernel_->clone(), settings);
        posterior.condition(support_, prior_values);
        weights_ = posterior.solve(prior_values);

        optimum_ = search_optimum();
        description_ = fmt::format(
            "a GP-prior sample (seed {}, SE kernel, {}, signal variance {:.6g}; posterior mean "
            "with noise variance {:.6g} through {} support points uniform in [{:.6g}, {:.6g}]^{}; "
            "known optimum {:.6g} estimated by multi-start L-BFGS)",
            seed_, describe_lengthscales(lengthscales_), signal_variance_, support_noise_variance, count, lower_,
            upper_, dim_, optimum_.value);
    }

    void build_grid_sample(dpbo::ExperimentRng& rng) {
        const auto levels = static_cast<arma::uword>(grid_);
        const auto count = static_cast<arma::uword>(std::pow(static_cast<double>(grid_), dim_));
        const arma::vec standard_normals = rng.normal(count, 1);
        grid_coordinates_ = arma::linspace(lower_, upper_, levels);

        // The SE kernel factorises over dimensions, so the grid covariance is K_1 ⊗ … ⊗ K_d and
        // (L_1 ⊗ … ⊗ L_d) z is an exact sample; the signal variance scales the product once.
        const arma::vec per_dimension = lengthscale_per_dimension();
        std::vector<arma::mat> factors;
        for (std::size_t k = 0; k < dim_; ++k) {
            if (k > 0 && per_dimension(k) == per_dimension(k - 1)) {
                factors.push_back(factors.back());
                continue;
            }
            const auto kernel = make_se_kernel(1, arma::vec{per_dimension(k)}, 1.0);
            factors.push_back(jittered_lower_cholesky(kernel->cross(grid_coordinates_, grid_coordinates_),
                                                      fmt::format("{} grid levels in dimension {}", levels, k)));
        }
        grid_values_ = std::sqrt(signal_variance_) * apply_kronecker_factors(factors, standard_normals);

        arma::mat rows(count, dim_);
        arma::uword stride = 1;
        for (std::size_t k = 0; k < dim_; ++k) {
            const arma::vec pattern = arma::kron(grid_coordinates_, arma::ones(stride));
            rows.col(k) = arma::repmat(pattern, count / (stride * levels), 1);
            stride *= levels;
        }
        grid_strides_ = arma::vec(dim_);
        for (std::size_t k = 0; k < dim_; ++k) grid_strides_(k) = std::pow(levels, k);

        const arma::uword best = sense_ == dpbo::Sense::Maximise ? grid_values_.index_max() : grid_values_.index_min();
        optimum_.value = grid_values_(best);
        optimum_.points = rows.row(best);
        // The box is public: its bounds are the grid's declared bounds (a row release scales from them).
        std::vector<dpbo::Dimension> box;
        for (std::size_t k = 0; k < dim_; ++k) box.push_back({fmt::format("x{}", k), lower_, upper_});
        space_ = dpbo::SearchSpace::candidates_within(std::move(rows), std::move(box));
        description_ = fmt::format(
            "a GP-prior sample (seed {}, exact on the {}^{} grid over [{:.6g}, {:.6g}]^{}, SE "
            "kernel, {}, signal variance {:.6g})",
            seed_, grid_, dim_, lower_, upper_, dim_, describe_lengthscales(lengthscales_), signal_variance_);
    }

    arma::vec posterior_mean(const arma::mat& points) const {
        arma::vec values(points.n_rows);
        for (arma::uword first = 0; first < points.n_rows; first += kChunkRows) {
            const arma::uword last = std::min(first + kChunkRows, points.n_rows) - 1;
            values.subvec(first, last) = kernel_->cross(points.rows(first, last), support_) * weights_;
        }
        return values;
    }

    // Row indices of grid points; anything else is refused, since the grid form is only defined
    // on its candidate set.
    arma::uvec grid_rows(const arma::mat& points) const {
        const double step = (upper_ - lower_) / static_cast<double>(grid_ - 1);
        const arma::mat scaled = (points - lower_) / step;
        const arma::mat levels = arma::round(scaled);
        const double top = static_cast<double>(grid_ - 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            for (arma::uword k = 0; k < dim_; ++k) {
                const bool on_grid = std::isfinite(scaled(i, k)) && levels(i, k) >= 0.0 && levels(i, k) <= top &&
                                     std::abs(scaled(i, k) - levels(i, k)) <= kGridTolerance;
                if (!on_grid) {
                    throw dpbo::ValidationError(
                        fmt::format("{}: point {} has x{} = {} which is not a grid level; with grid = {} the "
                                    "coordinates must be lower + j·{} for j = 0..{} (the rows of the search "
                                    "space)",
                                    kOwner, i, k, points(i, k), grid_, step, grid_ - 1));
                }
            }
        }
        return arma::conv_to<arma::uvec>::from(levels * grid_strides_);
    }

    dpbo::KnownOptimum search_optimum() const {
        const double sign = sense_ == dpbo::Sense::Maximise ? -1.0 : 1.0;
        dpbo::ExperimentRng search_rng(kOptimumSearchSeed);
        const arma::mat starts =
            arma::join_cols(lower_ + (upper_ - lower_) * search_rng.uniform(kSweepPoints, dim_), support_);
        const arma::vec scores = sign * posterior_mean(starts);
        const arma::uvec order = arma::sort_index(scores);

        arma::rowvec best_point = starts.row(order(0));
        double best_score = scores(order(0));

        LocalSearch search{kernel_.get(), &support_, &weights_, sign, nullptr, {}};
        search.optimiser = nlopt_create(NLOPT_LD_LBFGS, static_cast<unsigned>(dim_));
        if (search.optimiser == nullptr) {
            throw dpbo::RunError(fmt::format("{}: NLopt could not create an L-BFGS optimiser", kOwner));
        }
        const std::vector<double> lower(dim_, lower_);
        const std::vector<double> upper(dim_, upper_);
        nlopt_set_lower_bounds(search.optimiser, lower.data());
        nlopt_set_upper_bounds(search.optimiser, upper.data());
        nlopt_set_min_objective(search.optimiser, signed_posterior_mean, &search);
        nlopt_set_ftol_rel(search.optimiser, 1e-14);
        nlopt_set_xtol_rel(search.optimiser, 1e-12);
        nlopt_set_maxeval(search.optimiser, kLocalEvaluations);

        const std::size_t local_starts = std::min<std::size_t>(kLocalStarts, order.n_elem);
        for (std::size_t s = 0; s < local_starts; ++s) {
            std::vector<double> x = arma::conv_to<std::vector<double>>::from(starts.row(order(s)));
            double reached = 0.0;
            nlopt_optimize(search.optimiser, x.data(), &reached);
            if (!search.failure.empty()) {
                nlopt_destroy(search.optimiser);
                throw dpbo::RunError(fmt::format("{}: the search for the optimum failed: {}", kOwner, search.failure));
            }
            // L-BFGS may stop with a roundoff warning at a good point; the point is judged by
            // its own value, clamped into the box, never by NLopt's status.
            arma::rowvec candidate(x);
            candidate = arma::clamp(candidate, lower_, upper_);
            const double score = sign * posterior_mean(candidate)(0);
            if (std::isfinite(score) && score < best_score) {
                best_score = score;
                best_point = candidate;
            }
        }
        nlopt_destroy(search.optimiser);

        dpbo::KnownOptimum optimum;
        optimum.value = posterior_mean(best_point)(0);
        optimum.points = best_point;
        return optimum;
    }

    std::size_t dim_;
    double lower_;
    double upper_;
    double signal_variance_;
    std::uint64_t seed_;
    double noise_stddev_;
    dpbo::Sense sense_;
    std::size_t grid_;
    arma::vec lengthscales_;  // one entry (isotropic) or dim entries
    dpbo::SearchSpace space_;
    dpbo::KnownOptimum optimum_;
    std::string description_;

    // Continuous form: m(x) = k(x, support) · weights.
    std::unique_ptr<dpbo::gp::Kernel> kernel_;
    arma::mat support_;
    arma::vec weights_;

    // Grid form: values in row order of the candidate set (dimension 1 varying fastest).
    arma::vec grid_coordinates_;
    arma::vec grid_values_;
    arma::vec grid_strides_;
};

// The grid form: a finite space, so it provides FiniteCandidates. Its rows are the grid of the box,
// fixed by the settings alone.
class SyntheticGpGrid final : public SyntheticGp, public dpbo::FiniteCandidates {
public:
    using SyntheticGp::SyntheticGp;
    dpbo::CandidateRows candidates() const override {
        return {space().candidate_rows(), dpbo::RowStatus::DataIndependent};
    }
};

std::unique_ptr<dpbo::Module> SyntheticGp::create(const dpbo::ParameterSet& parameters) {
    if (parameters.integer("grid") > 0) return std::make_unique<SyntheticGpGrid>(parameters);
    return std::make_unique<SyntheticGp>(parameters);
}

}  // namespace

DPBO_PLUGIN(SyntheticGp, "synthetic-gp", "1.0.0",
            "fixed-seed GP-prior sample (SE kernel) on a box (posterior mean through support "
            "points; known optimum = best local optimum of a multi-start L-BFGS search, an "
            "estimate) or exact on a grid (exact optimum); maximised by default",
            "Müller et al. (2021), GIBO, synthetic experiments (sarmueller/gibo, data 110620); "
            "Kharkovskii et al. (2020), PO-GP-UCB, §4 synthetic GP")
