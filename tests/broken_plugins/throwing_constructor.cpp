// Loads and lists fine; creating the module throws, which `dpbo run` must report (exit 1) naming
// the module and its file.
#include <stdexcept>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class Exploding : public broken_cases::Sphere {
public:
    explicit Exploding(const dpbo::ParameterSet& p) : Sphere(p) {
        throw std::runtime_error("deliberate failure in the constructor");
    }
    using Sphere::schema;
};
}  // namespace

DPBO_PLUGIN(Exploding, "exploding-objective", "1.0.0", "test objective whose constructor throws", "none")
