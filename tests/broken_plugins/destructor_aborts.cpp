// Runs fine; its destructor, which runs after the results are written, aborts: the host must name
// the module, its file and that it was being destroyed, and exit non-zero.
#include <cstdlib>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class DestructorAborts : public broken_cases::Sphere {
public:
    using Sphere::schema;
    using Sphere::Sphere;
    ~DestructorAborts() override { std::abort(); }
};
}  // namespace

DPBO_PLUGIN(DestructorAborts, "aborting-destructor-objective", "1.0.0", "its destructor aborts", "none")
