// Rosenbrock's valley in any dimension ≥ 2: a narrow curved valley that defeats naive local
// search, minimum 0 at (1, ..., 1). Holds no sensitive data; optional Gaussian observation noise.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"
#include "memory_bound.hpp"

namespace {

// What one coordinate costs at least: its name and bounds in the space (about 64 bytes) and a few
// copies of a point's coordinate while evaluating.
constexpr double kBytesPerDimension = 96.0;

constexpr const char* kOwner = "objective 'rosenbrock'";

class Rosenbrock final : public dpbo::Objective, public dpbo::ObservationNoise, public dpbo::HasKnownOptimum {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("dim", {.fallback = 2, .lower = 2, .doc = "number of dimensions"})
            .real("lower", {.fallback = -2.048, .doc = "lower bound of every coordinate"})
            .real("upper", {.fallback = 2.048, .doc = "upper bound of every coordinate"});
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit Rosenbrock(const dpbo::ParameterSet& parameters)
        : dim_(static_cast<std::size_t>(parameters.integer("dim"))),
          space_(checked_space(dim_, parameters.real("lower"), parameters.real("upper"))),
          noise_stddev_(parameters.real("noise_stddev")) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != dim_) {
            throw dpbo::RunError(fmt::format("{}: points have {} columns; dim = {}", kOwner, points.n_cols, dim_));
        }
        // Columns 0..d−2 against columns 1..d−1: every term of every point in one expression.
        const arma::mat head = points.head_cols(dim_ - 1);
        const arma::mat tail = points.tail_cols(dim_ - 1);
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::sum(100.0 * arma::square(tail - arma::square(head)) + arma::square(1.0 - head), 1);
        return result;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        dpbo::KnownOptimum optimum;
        optimum.value = 0.0;
        optimum.points = arma::ones(1, dim_);
        return optimum;
    }

private:
    // The known optimum is only meaningful (and regret only ≥ 0) when (1, ..., 1) is in the box.
    static dpbo::SearchSpace checked_space(std::size_t dim, double lower, double upper) {
        if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper) || !(lower <= 1.0 && 1.0 <= upper)) {
            throw dpbo::ValidationError(
                fmt::format("{}: lower = {} and upper = {} are not allowed; need finite lower < upper "
                            "with the optimum 1 inside [lower, upper]",
                            kOwner, lower, upper));
        }
        // The largest value, about (dim − 1)·(100(M + M²)² + (1 + M)²) with M = max(|lower|, |upper|),
        // must be a double: past it every evaluation broke the evaluation contract with an infinite
        // value (exit 1) instead of naming lower and upper.
        const double m = std::max(std::abs(lower), std::abs(upper));
        const double largest =
            static_cast<double>(dim - 1) * (100.0 * (m + m * m) * (m + m * m) + (1.0 + m) * (1.0 + m));
        if (!std::isfinite(largest)) {
            const double allowed =
                std::pow(std::numeric_limits<double>::max() / (101.0 * static_cast<double>(dim - 1)), 0.25);
            throw dpbo::ValidationError(
                fmt::format("{}: lower = {} and upper = {} are too wide: the function's values there would overflow "
                            "the double range; allowed: |lower| and |upper| below {:.3g} for dim = {}",
                            kOwner, lower, upper, 0.5 * allowed, dim));
        }
        dpbo::memory::require(kOwner, fmt::format("dim = {}", dim), static_cast<double>(dim) * kBytesPerDimension,
                              "the search space's name and bounds of each coordinate and a point's copies");
        return dpbo::SearchSpace::uniform_box(dim, lower, upper);
    }

    std::size_t dim_;
    dpbo::SearchSpace space_;
    double noise_stddev_;
};

}  // namespace

DPBO_PLUGIN(Rosenbrock, "rosenbrock", "1.0.0",
            "Rosenbrock's valley in dim >= 2 dimensions, minimum 0 at (1, ..., 1), optional noise",
            "Rosenbrock (1960), The Computer Journal 3(3); standard optimisation benchmark")
