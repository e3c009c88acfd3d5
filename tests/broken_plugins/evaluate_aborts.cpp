// Loads and lists fine; its evaluate() calls abort(): the run must die naming the module, its file
// and the signal.
#include <cstdlib>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class Aborts : public broken_cases::Sphere {
public:
    using Sphere::schema;
    using Sphere::Sphere;
    dpbo::Evaluations evaluate(const arma::mat&, const dpbo::EvaluationRequest&) override { std::abort(); }
};
}  // namespace

DPBO_PLUGIN(Aborts, "aborting-objective", "1.0.0", "its evaluate aborts", "none")
