// A randomised objective for the tests only: ‖x‖² on [−1, 1]² plus N(0, spread²) drawn inside
// evaluate() from the request's experiment generator, so its values depend on which generator
// evaluates which point. The tests of distributed evaluation use it to check that MPI ranks draw
// what the threaded evaluator's slices draw, and that a one-slice batch draws from the run's own
// generator and leaves it where the serial evaluator would.
#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

class RandomisedQuadratic final : public dpbo::Objective {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("spread",
                    {.fallback = 0.1, .lower = 0.0, .doc = "standard deviation of the draw added to each value"});
        return schema;
    }

    explicit RandomisedQuadratic(const dpbo::ParameterSet& parameters)
        : spread_(parameters.real("spread")), space_(dpbo::SearchSpace::uniform_box(2, -1.0, 1.0, "x")) {}

    const dpbo::SearchSpace& space() const override { return space_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (request.rng == nullptr)
            throw dpbo::RunError("objective 'randomised-quadratic': the request carries no experiment generator");
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::sum(arma::square(points), 1) + spread_ * request.rng->normal(points.n_rows, 1);
        return result;
    }

private:
    double spread_;
    dpbo::SearchSpace space_;
};

}  // namespace

DPBO_PLUGIN(RandomisedQuadratic, "randomised-quadratic", "1.0.0",
            "test objective: ‖x‖² on [−1,1]² plus a normal draw from the request's experiment generator",
            "none (a test of how evaluators hand out generators)")
