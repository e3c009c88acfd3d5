// Upper confidence bound μ(x) + √β_t σ(x) with the exploration schedules of GP-UCB
// (Srinivas, Krause, Kakade & Seeger, ICML 2010, Theorems 1 and 2).
#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

constexpr const char* kOwner = "acquisition 'ucb'";

// Below this posterior variance σ is treated as 0 and so is its gradient: ∂σ = ∂v/(2σ) would
// divide rounding noise in ∂v by almost nothing. Any sensibly scaled posterior is far above it.
constexpr double kVarianceFloor = 1e-30;

enum class Schedule { Constant, Finite, Srinivas };

Schedule schedule_from(const std::string& name) {
    if (name == "constant") return Schedule::Constant;
    if (name == "finite") return Schedule::Finite;
    return Schedule::Srinivas;  // the schema admits nothing else
}

class UpperConfidenceBound final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .choice("beta_schedule", {"constant", "finite", "srinivas"}, "srinivas",
                    "how β_t grows with the iteration t: constant (β = beta); finite (Srinivas et al. "
                    "2010, Thm 1, for a finite candidate set Λ: β_t = 2 log(|Λ| t² π² / (6 delta))); "
                    "srinivas (Thm 2, for a box [0, r]^d: β_t = 2 log(2 t² π² / (3 delta)) + "
                    "2 d log(t² d b r √log(4 d a / delta)))")
            .real("beta_scale",
                  {.fallback = 1.0,
                   .lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "multiplies β_t of any schedule; the theorems' β_t is chosen for a proof and explores "
                          "far more than practice needs, so practical GP-UCB scales it down"})
            .real("beta", {.fallback = 2.0,
                           .lower = 0.0,
                           .doc = "β of the constant schedule (score μ + √β σ); only with beta_schedule=constant"})
            .real("delta", {.fallback = 0.1,
                            .lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .upper_inclusive = false,
                            .doc = "failure probability δ of the finite and srinivas schedules"})
            .real("a", {.fallback = 1.0,
                        .lower = 0.0,
                        .lower_inclusive = false,
                        .doc = "srinivas schedule: a in the gradient tail bound Pr(sup|∂f/∂x_j| > L) ≤ a e^{-(L/b)²}"})
            .real("b", {.fallback = 1.0,
                        .lower = 0.0,
                        .lower_inclusive = false,
                        .doc = "srinivas schedule: b in the gradient tail bound Pr(sup|∂f/∂x_j| > L) ≤ a e^{-(L/b)²}"})
            .real("r", {.fallback = 1.0,
                        .lower = 0.0,
                        .lower_inclusive = false,
                        .doc = "srinivas schedule: side r of the domain [0, r]^d in the surrogate's coordinates "
                               "(1 for the BO loops, which work in the unit cube)"});
        return schema;
    }

    explicit UpperConfidenceBound(const dpbo::ParameterSet& parameters)
        : schedule_(schedule_from(parameters.text("beta_schedule"))),
          beta_scale_(parameters.real("beta_scale")),
          beta_(parameters.real("beta")),
          delta_(parameters.real("delta")),
          a_(parameters.real("a")),
          b_(parameters.real("b")),
          r_(parameters.real("r")) {
        // A value the chosen schedule ignores would be silently dropped; refuse it instead.
        const auto refuse_unused = [&](const char* key, const char* used_by) {
            if (parameters.given_by_user(key)) {
                throw dpbo::ValidationError(
                    fmt::format("{}: {} = {} is not used by beta_schedule={}; allowed only with beta_schedule={}",
                                kOwner, key, parameters.real(key), parameters.text("beta_schedule"), used_by));
            }
        };
        if (schedule_ != Schedule::Constant) refuse_unused("beta", "constant");
        if (schedule_ == Schedule::Constant) refuse_unused("delta", "finite or srinivas");
        if (schedule_ != Schedule::Srinivas) {
            refuse_unused("a", "srinivas");
            refuse_unused("b", "srinivas");
            refuse_unused("r", "srinivas");
        }
    }

    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        const double root_beta = std::sqrt(beta_scale_ * beta(context, points.n_cols));
        const dpbo::Posterior posterior = model.predict(points);
        arma::vec sigma = posterior.variance;
        sigma.transform([](double v) { return v > kVarianceFloor ? std::sqrt(v) : 0.0; });
        return posterior.mean + root_beta * sigma;
    }

    bool provides_gradient() const override { return true; }

    double score_with_gradient(const dpbo::Surrogate& model, const arma::rowvec& point,
                               const dpbo::AcquisitionContext& context, arma::rowvec& gradient) const override {
        const double root_beta = std::sqrt(beta_scale_ * beta(context, point.n_elem));
        const dpbo::PointPosterior posterior = model.predict_with_gradient(point);
        if (posterior.variance <= kVarianceFloor) {
            gradient = posterior.mean_gradient;
            return posterior.mean;
        }
        const double sigma = std::sqrt(posterior.variance);
        gradient = posterior.mean_gradient + (root_beta / (2.0 * sigma)) * posterior.variance_gradient;
        return posterior.mean + root_beta * sigma;
    }

private:
    double beta(const dpbo::AcquisitionContext& context, std::size_t dim) const {
        if (schedule_ == Schedule::Constant) return beta_;
        const std::size_t t = context.iteration;
        if (t == 0) {
            throw dpbo::RunError(
                fmt::format("{}: iteration t = 0; the GP-UCB schedules count iterations from 1", kOwner));
        }
        if (context.dimension != 0 && context.dimension != dim) {
            throw dpbo::RunError(fmt::format("{}: the context says dimension {} but the points have {} columns", kOwner,
                                             context.dimension, dim));
        }
        constexpr double pi_squared = std::numbers::pi * std::numbers::pi;
        const double log_t_squared = 2.0 * std::log(static_cast<double>(t));
        if (schedule_ == Schedule::Finite) {
            if (context.candidate_count == 0) {
                throw dpbo::RunError(
                    fmt::format("{}: beta_schedule=finite needs a finite candidate set (|Λ| = 0 here, the search is "
                                "over a box); use beta_schedule=srinivas or constant for boxes",
                                kOwner));
            }
            // Srinivas et al. (2010), Theorem 1: β_t = 2 log(|D| t² π² / (6δ)).
            return 2.0 * (std::log(static_cast<double>(context.candidate_count)) + log_t_squared +
                          std::log(pi_squared / (6.0 * delta_)));
        }
        // Srinivas et al. (2010), Theorem 2, for D ⊂ [0, r]^d compact and convex and
        // Pr(sup_x |∂f/∂x_j| > L) ≤ a e^{-(L/b)²}:
        //   β_t = 2 log(t² 2π² / (3δ)) + 2d log(t² d b r √log(4da/δ)).
        // Written as sums of logarithms so that large t or d cannot overflow the products.
        const double d = static_cast<double>(dim);
        const double tail = std::log(4.0 * d * a_ / delta_);
        if (!(tail > 0.0)) {
            throw dpbo::RunError(
                fmt::format("{}: log(4 d a / delta) = {} with d = {}, a = {}, delta = {}; the srinivas schedule needs "
                            "4 d a > delta (raise a)",
                            kOwner, tail, dim, a_, delta_));
        }
        const double beta_t = 2.0 * (log_t_squared + std::log(2.0 * pi_squared / (3.0 * delta_))) +
                              2.0 * d * (log_t_squared + std::log(d * b_ * r_) + 0.5 * std::log(tail));
        if (!(beta_t >= 0.0)) {
            throw dpbo::RunError(fmt::format(
                "{}: the srinivas schedule gives β_{} = {} < 0 with d = {}, a = {}, b = {}, r = {}, delta = {}; "
                "the theorem's constants are too small for this t (raise b or r)",
                kOwner, t, beta_t, dim, a_, b_, r_, delta_));
        }
        return beta_t;
    }

    Schedule schedule_;
    double beta_scale_;
    double beta_;
    double delta_;
    double a_;
    double b_;
    double r_;
};

}  // namespace

DPBO_PLUGIN(UpperConfidenceBound, "ucb", "1.0.0", "upper confidence bound μ + √β_t σ with the GP-UCB schedules",
            "Srinivas, Krause, Kakade & Seeger, Gaussian process optimization in the bandit setting, ICML 2010, "
            "Theorems 1 and 2")
