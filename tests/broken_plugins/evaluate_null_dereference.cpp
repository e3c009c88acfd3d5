// Loads and lists fine; its evaluate() reads through a null pointer (SIGSEGV): the run must die
// naming the module, its file and the signal.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class DereferencesNull : public broken_cases::Sphere {
public:
    using Sphere::schema;
    using Sphere::Sphere;
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        // Volatile pointer and target: the compiler can neither see the null (and emit a trap instead)
        // nor drop the load.
        const volatile double* volatile nowhere = nullptr;
        dpbo::Evaluations e = Sphere::evaluate(points, request);
        e.values(0) = *nowhere;
        return e;
    }
};
}  // namespace

DPBO_PLUGIN(DereferencesNull, "null-dereferencing-objective", "1.0.0", "its evaluate reads address 0", "none")
