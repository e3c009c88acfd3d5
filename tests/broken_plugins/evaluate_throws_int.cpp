// Loads and lists fine; its evaluate() throws an int, not a std::exception: the run must end with
// an error naming the module and its file, not "terminate called after throwing an instance of 'int'".
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class ThrowsInt : public broken_cases::Sphere {
public:
    using Sphere::schema;
    using Sphere::Sphere;
    dpbo::Evaluations evaluate(const arma::mat&, const dpbo::EvaluationRequest&) override { throw 42; }
};
}  // namespace

DPBO_PLUGIN(ThrowsInt, "int-throwing-objective", "1.0.0", "its evaluate throws an int", "none")
