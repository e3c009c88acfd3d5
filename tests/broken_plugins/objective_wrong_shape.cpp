// Breaks the objective contract by its shape: it declares one output but returns two value
// columns. The evaluator must refuse it naming the module and this file.
#include <dpbo/objective.hpp>
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {

class WrongShape final : public broken_cases::Sphere {
public:
    using Sphere::Sphere;
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        dpbo::Evaluations e = Sphere::evaluate(points, request);
        e.values = arma::join_rows(e.values, e.values);
        return e;
    }
};

}  // namespace

DPBO_PLUGIN(WrongShape, "wrong-shape", "1.0.0", "test objective that returns two value columns for one output", "none")
