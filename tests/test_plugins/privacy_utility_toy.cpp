// A two-output objective for DPareto's tests only, in closed form: a learner's privacy loss and
// error as functions of an integer number of steps s ∈ [1, 20] and a noise scale σ ∈ [0.5, 8]
// (log-scaled), both minimised:
//   epsilon = 2 √s / σ                      (more steps or less noise: less privacy)
//   error   = 0.05 + 0.9 σ² / (σ² + s) + 0.002 s   (more noise: worse; more steps: better, then a little worse)
// so ε ∈ [0.25, 17.9] straddles v† = 10 and the error stays in (0, 1).
#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"

namespace {

class PrivacyUtilityToy final : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() { return {}; }

    explicit PrivacyUtilityToy(const dpbo::ParameterSet& /*parameters*/)
        : space_(dpbo::SearchSpace::box({{.name = "steps", .lower = 1.0, .upper = 20.0, .integer = true},
                                         {.name = "sigma", .lower = 0.5, .upper = 8.0, .scale = dpbo::Scale::Log}})) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        return {{"epsilon", dpbo::Sense::Minimise}, {"error", dpbo::Sense::Minimise}};
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("objective 'privacy-utility-toy': points have {} columns; expected 2", points.n_cols));
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 2);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double s = points(i, 0), sigma = points(i, 1);
            result.values(i, 0) = 2.0 * std::sqrt(s) / sigma;
            result.values(i, 1) = 0.05 + 0.9 * sigma * sigma / (sigma * sigma + s) + 0.002 * s;
        }
        return result;
    }

private:
    dpbo::SearchSpace space_;
};

}  // namespace

DPBO_PLUGIN(PrivacyUtilityToy, "privacy-utility-toy", "1.0.0",
            "test objective with two minimised outputs, epsilon = 2√s/σ and error = 0.05 + 0.9σ²/(σ² + s) + 0.002s, "
            "over an integer s ∈ [1, 20] and a log-scaled σ ∈ [0.5, 8]",
            "none (a test of dpareto)")
