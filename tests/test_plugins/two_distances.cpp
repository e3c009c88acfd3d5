// A two-output objective for the tests only: on the box [0, 1]², output "distance_a" = ‖x − a‖²
// is minimised and "closeness_b" = −‖x − b‖² is maximised, so both senses are exercised. Its
// Pareto set is the segment from a to b: along it, getting closer to b means leaving a.
#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"

namespace {

class TwoDistances final : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("a0", {.fallback = 0.2, .lower = 0.0, .upper = 1.0, .doc = "first coordinate of a"})
            .real("a1", {.fallback = 0.3, .lower = 0.0, .upper = 1.0, .doc = "second coordinate of a"})
            .real("b0", {.fallback = 0.8, .lower = 0.0, .upper = 1.0, .doc = "first coordinate of b"})
            .real("b1", {.fallback = 0.7, .lower = 0.0, .upper = 1.0, .doc = "second coordinate of b"});
        return schema;
    }

    explicit TwoDistances(const dpbo::ParameterSet& parameters)
        : a_{parameters.real("a0"), parameters.real("a1")},
          b_{parameters.real("b0"), parameters.real("b1")},
          space_(dpbo::SearchSpace::uniform_box(2, 0.0, 1.0, "x")) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        return {{"distance_a", dpbo::Sense::Minimise}, {"closeness_b", dpbo::Sense::Maximise}};
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("objective 'two-distances': points have {} columns; expected 2", points.n_cols));
        arma::mat to_a = points;
        to_a.each_row() -= a_;
        arma::mat to_b = points;
        to_b.each_row() -= b_;
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::join_rows(arma::sum(arma::square(to_a), 1), -arma::sum(arma::square(to_b), 1));
        return result;
    }

private:
    arma::rowvec a_;
    arma::rowvec b_;
    dpbo::SearchSpace space_;
};

}  // namespace

DPBO_PLUGIN(TwoDistances, "two-distances", "1.0.0",
            "test objective with two outputs on [0,1]²: ‖x − a‖² (minimised) and −‖x − b‖² (maximised); "
            "Pareto set: the segment from a to b",
            "none (a test of the several-output BO loop)")
