// Robust linear regression (DP-GIBO: Sopa et al., §4.2): n sensitive records (x_i, y_i) with x_i ~ N(0, I_d),
// e_i ~ N(0, 1), y_i = x_iᵀθ* + e_i, θ* = true_value·1, and the per-record loss
//   L(θ, (x_i, y_i)) = ρ_c(y_i − x_iᵀθ) · w_i,   w_i = min(1, 2/‖x_i‖²),
// ρ_c(r) = r²/2 for |r| ≤ c, c|r| − c²/2 otherwise. The weight bounds every per-record gradient,
// ‖w_i ψ_c(r_i) x_i‖ ≤ c·min(‖x_i‖, 2/‖x_i‖) ≤ c√2 (ψ_c(r) = clamp(r, −c, c)), which is why the
// paper uses this loss. The records come from their own generator ExperimentRng(data_seed): first
// normal(n, d) for the covariates (filled column by column), then normal(n, 1) for the errors.
//
// The known optimum is the exact minimiser of the empirical loss, found at construction by damped
// Newton steps on the convex, piecewise-quadratic f (damped towards reweighted least squares while
// its Hessian is singular) with an Armijo line search, to a gradient norm of 1e-12.
//
// The neighbour switch (dpbo/neighbour.hpp) replaces record i, after the draw, by x = √(2/d)·1 and
// y = neighbour_value: ‖x‖ = √2 is where the weighted gradient's bound c√2 is reached, and the
// default y = −10 puts the residual far beyond c with the sign that turns the record's gradient,
// c·x at θ⁽⁰⁾ = 0, against the records' (whose responses follow θ* = true_value·1 > 0).
//
// noise_stddev perturbs the mean values only, as an observation of f would be; the per-record
// losses stay exact, because they are the records' own contributions, which DP-GIBO clips and
// privatises itself (its guarantee never relies on this noise). The host adds it after checking the
// exact values (observation_noise_stddev()).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/neighbour.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'huber-regression'";
constexpr double kGradientTolerance = 1e-12;
constexpr int kMaxSteps = 500;
constexpr double kArmijoFraction = 1e-4;
constexpr double kSmallestStep = 1e-16;
constexpr double kInitialDamping = 1e-3;
constexpr double kSmallestDamping = 1e-14;
constexpr double kLargestDamping = 1.0;

struct LossAndGradient {
    double value = 0.0;
    arma::vec gradient;
    arma::vec residuals;
};

class HuberRegression final : public dpbo::Objective,
                              public dpbo::ObservationNoise,
                              public dpbo::RecordDecomposable,
                              public dpbo::RecordGradients,
                              public dpbo::HasKnownOptimum,
                              public dpbo::SensitiveData {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 4, .lower = 1, .doc = "number d of covariates (and of coefficients θ)"})
            .integer("records", {.fallback = 100, .lower = 1, .doc = "number n of sensitive records (x_i, y_i)"})
            .real("true_value",
                  {.fallback = 1.0, .doc = "every coordinate of the coefficients θ* that generate the responses"})
            .real("huber_c", {.fallback = 1.0,
                              .lower = 0.0,
                              .lower_inclusive = false,
                              .doc = "the Huber loss's threshold c: quadratic for |residual| ≤ c, linear beyond"});
        dpbo::add_synthetic_record_parameters(schema);
        dpbo::add_neighbour_parameters(
            schema, -10.0,
            "the response y of the record that replaces record neighbour_record, whose covariates are √(2/d)·1 "
            "(norm √2, where the gradient bound c√2 is reached; default −10: a residual far beyond c whose "
            "gradient points against the records')");
        return schema;
    }

    explicit HuberRegression(const dpbo::ParameterSet& parameters)
        : setup_(dpbo::synthetic_record_settings(parameters)),
          true_value_(parameters.real("true_value")),
          c_(parameters.real("huber_c")),
          neighbour_(dpbo::neighbour_switch(parameters, setup_.records, kOwner)),
          space_(dpbo::SearchSpace::uniform_box(setup_.dim, -setup_.bound, setup_.bound, "theta")) {
        dpbo::ExperimentRng data_rng(setup_.data_seed);
        covariates_ = data_rng.normal(setup_.records, setup_.dim);
        const arma::vec errors = data_rng.normal(setup_.records, 1);
        responses_ = covariates_ * arma::vec(setup_.dim, arma::fill::value(true_value_)) + errors;
        if (neighbour_.active()) {
            covariates_.row(*neighbour_.record).fill(std::sqrt(2.0 / static_cast<double>(setup_.dim)));
            responses_(*neighbour_.record) = neighbour_.value;
        }
        weights_ = arma::clamp(2.0 / arma::sum(arma::square(covariates_), 1), 0.0, 1.0);
        find_minimiser();
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return setup_.noise_stddev; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        check_columns(points.n_cols, "points have");
        dpbo::Evaluations result;
        result.points = points;
        // Residuals of every (point, record) pair in one GEMM; the mean needs them all anyway.
        arma::mat residuals = -points * covariates_.t();
        residuals.each_row() += responses_.t();
        arma::mat losses = huber(residuals);
        losses.each_row() %= weights_.t();
        result.values = arma::mean(losses, 1);
        if (request.per_record) result.per_record = std::move(losses);
        return result;
    }

    std::size_t record_count() const override { return setup_.records; }

    // ∇_θ L_i = −w_i ψ_c(y_i − x_iᵀθ) x_i, one row per record.
    arma::mat record_gradients(const arma::rowvec& point) const override {
        check_columns(point.n_elem, "the point has");
        const arma::vec residuals = responses_ - covariates_ * point.t();
        arma::mat gradients = covariates_;
        gradients.each_col() %= -(weights_ % arma::clamp(residuals, -c_, c_));
        return gradients;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        return dpbo::KnownOptimum{minimum_value_, arma::mat(minimiser_.t())};
    }

    std::string data_description() const override {
        return fmt::format(
            "{} records (x_i ~ N(0, I_{}), y_i = x_iᵀθ* + e_i, e_i ~ N(0, 1)) with θ* = {}·1, drawn "
            "with data_seed {}; Huber c = {}, weights min(1, 2/‖x_i‖²){}",
            setup_.records, setup_.dim, true_value_, setup_.data_seed, c_,
            neighbour_.describe(fmt::format("(x = √(2/{})·1, y = {})", setup_.dim, neighbour_.value)));
    }

private:
    // ρ_c elementwise, without branches: with m = min(|r|, c), ρ_c(r) = m²/2 + c(|r| − m).
    arma::mat huber(const arma::mat& residuals) const {
        const arma::mat magnitude = arma::abs(residuals);
        const arma::mat inner = arma::clamp(magnitude, 0.0, c_);
        return 0.5 * arma::square(inner) + c_ * (magnitude - inner);
    }

    LossAndGradient loss_and_gradient(const arma::vec& theta) const {
        LossAndGradient out;
        out.residuals = responses_ - covariates_ * theta;
        const double n = static_cast<double>(setup_.records);
        out.value = arma::dot(weights_, huber(out.residuals)) / n;
        out.gradient = -covariates_.t() * (weights_ % arma::clamp(out.residuals, -c_, c_)) / n;
        return out;
    }

    // (1/n) Σ v_i x_i x_iᵀ for per-record coefficients v.
    arma::mat weighted_gram(const arma::vec& coefficients) const {
        arma::mat scaled = covariates_;
        scaled.each_col() %= coefficients;
        return scaled.t() * covariates_ / static_cast<double>(setup_.records);
    }

    // (1/n) Σ w_i 1{|r_i| ≤ c} x_i x_iᵀ: the Hessian wherever no residual sits exactly at ±c.
    arma::mat hessian(const arma::vec& residuals) const {
        return weighted_gram(weights_ % arma::conv_to<arma::vec>::from(arma::abs(residuals) <= c_));
    }

    // Solves M p = −g by Cholesky; false when M is singular or too ill-conditioned to trust (LAPACK's
    // reciprocal condition estimate below 1e-12: rounding would dominate the solve).
    static bool descent_direction(const arma::mat& m, const arma::vec& gradient, arma::vec& direction) {
        arma::mat factor;
        if (!(arma::rcond(m) > 1e-12) || !arma::chol(factor, m, "lower")) return false;
        const arma::vec half = arma::solve(arma::trimatl(factor), -gradient);
        direction = arma::solve(arma::trimatu(factor.t()), half);
        return true;
    }

    // Solves (H + λA) p = −g: H the Hessian, A the curvature of the quadratic majoriser of f at θ
    // (weights w_i·min(1, c/|r_i|); A ⪰ H, and A is definite when the covariates have full rank).
    // Small λ gives Newton's step, which lands on the minimiser once the set of residuals within c
    // is right; λ = 1 gives a step that minimises a quadratic upper bound of f, so it always passes
    // the Armijo test — the fallback while too few residuals lie within c for H to be definite.
    // The damping grows until the system is well-conditioned.
    arma::vec search_direction(const LossAndGradient& current, double& damping) const {
        const arma::mat h = hessian(current.residuals);
        const arma::mat a = weighted_gram(weights_ % arma::clamp(c_ / arma::abs(current.residuals), 0.0, 1.0));
        arma::vec direction;
        while (!descent_direction(h + damping * a, current.gradient, direction)) {
            if (damping >= kLargestDamping)
                throw no_convergence(current, "covariates too close to rank-deficient for a definite step");
            damping = std::min(kLargestDamping, 10.0 * damping);
        }
        return direction;
    }

    // Armijo's sufficient decrease; near the minimiser the decrease falls below the rounding of f,
    // and there a step that shrinks the gradient is taken instead.
    static bool acceptable(const LossAndGradient& current, const LossAndGradient& trial, double slope) {
        if (trial.value <= current.value + kArmijoFraction * slope) return true;
        const double rounding = 8.0 * std::numeric_limits<double>::epsilon() * std::abs(current.value);
        return trial.value <= current.value + rounding && arma::norm(trial.gradient) < arma::norm(current.gradient);
    }

    void find_minimiser() {
        if (setup_.records < setup_.dim) {
            throw dpbo::ValidationError(fmt::format(
                "{}: records = {} is fewer than dim = {}: the empirical loss then has a whole set of minimisers and no "
                "known optimum; allowed: records >= dim",
                kOwner, setup_.records, setup_.dim));
        }
        arma::vec theta(setup_.dim, arma::fill::zeros);
        LossAndGradient current = loss_and_gradient(theta);
        int step = 0;
        double damping = kInitialDamping;
        while (arma::norm(current.gradient) > kGradientTolerance) {
            if (++step > kMaxSteps) throw no_convergence(current, "the iteration limit");
            const arma::vec direction = search_direction(current, damping);
            const double slope = arma::dot(current.gradient, direction);
            double t = 1.0;
            LossAndGradient trial = loss_and_gradient(theta + t * direction);
            while (!acceptable(current, trial, t * slope)) {
                t *= 0.5;
                if (t < kSmallestStep) throw no_convergence(current, "a line search that found no decrease");
                trial = loss_and_gradient(theta + t * direction);
            }
            theta += t * direction;
            current = std::move(trial);
            // Trust Newton more after a full step, less after a shortened one (Levenberg–Marquardt).
            damping = t == 1.0 ? std::max(kSmallestDamping, 0.1 * damping) : std::min(kLargestDamping, 10.0 * damping);
        }
        // A singular Hessian at the minimiser means a whole set of minimisers (f is piecewise quadratic):
        // "the" optimum and every distance to it would be arbitrary.
        const arma::vec curvatures = arma::eig_sym(hessian(current.residuals));
        if (!(curvatures.min() > 1e-10 * curvatures.max())) {
            throw dpbo::ValidationError(fmt::format(
                "{}: with records = {}, huber_c = {}, data_seed = {} fewer than dim = {} independent records have "
                "residuals within c at the minimiser, so the empirical loss has no unique minimiser; allowed: more "
                "records or a larger huber_c",
                kOwner, setup_.records, c_, setup_.data_seed, setup_.dim));
        }
        if (arma::abs(theta).max() > setup_.bound) {
            throw dpbo::ValidationError(fmt::format(
                "{}: bound = {} is too small: the minimiser of the empirical loss (largest coordinate {:.6g} in "
                "absolute value) lies outside [−bound, bound]^{} for true_value = {}, data_seed = {}; allowed: a "
                "bound that contains it",
                kOwner, setup_.bound, arma::abs(theta).max(), setup_.dim, true_value_, setup_.data_seed));
        }
        minimiser_ = theta;
        minimum_value_ = current.value;
    }

    dpbo::RunError no_convergence(const LossAndGradient& current, const char* reason) const {
        return dpbo::RunError(fmt::format(
            "{}: computing the known optimum stopped at {} with gradient norm {:.3g} (> {:g}) for records = {}, "
            "dim = {}, huber_c = {}, data_seed = {}",
            kOwner, reason, arma::norm(current.gradient), kGradientTolerance, setup_.records, setup_.dim, c_,
            setup_.data_seed));
    }

    void check_columns(std::size_t columns, const char* what) const {
        if (columns != setup_.dim)
            throw dpbo::RunError(fmt::format("{}: {} {} coordinates; dim = {}", kOwner, what, columns, setup_.dim));
    }

    dpbo::SyntheticRecordSettings setup_;
    double true_value_;
    double c_;
    dpbo::NeighbourSwitch neighbour_;
    dpbo::SearchSpace space_;
    arma::mat covariates_;  // n × d, x_i as rows
    arma::vec responses_;   // y
    arma::vec weights_;     // w_i = min(1, 2/‖x_i‖²)
    arma::vec minimiser_;
    double minimum_value_ = 0.0;
};

}  // namespace

DPBO_PLUGIN(
    HuberRegression, "huber-regression", "1.0.0",
    "robust linear regression: mean over n records of the weighted Huber loss ρ_c(y_i − x_iᵀθ)·min(1, 2/‖x_i‖²) "
    "on synthetic Gaussian data; minimum at the exact empirical minimiser",
    "Sopa, Marusic, Avella-Medina & Cunningham, Scalable Differentially Private Bayesian Optimization, "
    "§4.2 and appendix C.2 (appendix E.4 of the newer version): linear regression with the Huber loss")
