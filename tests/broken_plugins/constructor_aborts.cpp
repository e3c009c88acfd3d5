// Loads and lists fine; its constructor calls abort() (SIGABRT): the run must stop with exit status 1,
// naming the module, its file, the signal and that it was being created.
#include <cstdlib>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class AbortsWhenMade : public broken_cases::Sphere {
public:
    using Sphere::schema;
    explicit AbortsWhenMade(const dpbo::ParameterSet& p) : Sphere(p) { std::abort(); }
};
}  // namespace

DPBO_PLUGIN(AbortsWhenMade, "aborting-constructor-objective", "1.0.0", "its constructor aborts", "none")
