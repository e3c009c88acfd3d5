// Loads, lists and evaluates fine; reference_values(), which the host calls after the run to judge
// it, throws an int: the run must end naming the module, its file and what it was doing.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class ReferenceThrowsInt : public broken_cases::Sphere, public dpbo::SensitiveData {
public:
    using Sphere::schema;
    using Sphere::Sphere;
    std::string data_description() const override { return {}; }
    std::vector<dpbo::ReleasedValue> reference_values() const override { throw 7; }
};
}  // namespace

DPBO_PLUGIN(ReferenceThrowsInt, "int-throwing-reference-objective", "1.0.0", "its reference_values throws an int",
            "none")
