// Branin-Hoo: a standard two-dimensional test function with three global minimisers, used in the
// PO-GP-UCB experiments (their appendix A searches it on a grid: `grid` = g makes the space the g × g
// grid of the box, whose bounds are declared). Holds no sensitive data; optional Gaussian
// observation noise makes it a noisy benchmark.
#include <fmt/format.h>

#include "branin_function.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'branin'";

namespace branin_function = dpbo::branin_function;

class Branin final : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("grid", {.fallback = 0, .lower = 0, .upper = 2000,
                                .doc = "0: the box; g ≥ 2: the g × g grid of the box as a finite set of rows "
                                       "(PO-GP-UCB's Branin-Hoo experiment)"});
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit Branin(const dpbo::ParameterSet& parameters)
        : box_(branin_function::box()),
          noise_stddev_(parameters.real("noise_stddev")) {
        const auto grid = static_cast<std::size_t>(parameters.integer("grid"));
        if (grid == 1)
            throw dpbo::ValidationError(fmt::format("{}: grid = 1; expected 0 (the box) or at least 2 levels", kOwner));
        space_ = grid == 0 ? box_ : dpbo::SearchSpace::candidates_within(box_.grid(grid), box_.dimensions());
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }

    dpbo::Evaluations evaluate(const arma::mat& points,
                               const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != 2) {
            throw dpbo::RunError(fmt::format("{}: points have {} columns; Branin takes 2", kOwner,
                                             points.n_cols));
        }
        dpbo::Evaluations result;
        result.points = points;
        result.values = branin_function::values(points);
        return result;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        if (space_.is_finite()) {
            const arma::vec values = branin_function::values(space_.candidate_rows());
            const arma::uvec best = arma::find(values == values.min());
            return dpbo::KnownOptimum{values.min(), space_.candidate_rows().rows(best)};
        }
        dpbo::KnownOptimum optimum;
        optimum.value = branin_function::minimum_value();
        optimum.points = branin_function::minimisers();
        return optimum;
    }

private:
    dpbo::SearchSpace box_;
    dpbo::SearchSpace space_;
    double noise_stddev_;
};

}  // namespace

DPBO_PLUGIN(Branin, "branin", "1.0.0",
            "Branin-Hoo on [-5,10]x[0,15] or a grid of it, three global minima of 5/(4 pi), optional noise",
            "Dixon & Szegő (1978); SPEC §4 (PO-GP-UCB experiments)")
