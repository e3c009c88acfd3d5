// Same module name as accepted_sphere.so, which sorts (and so loads) first.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

DPBO_PLUGIN(broken_cases::Sphere, "extra-sphere", "2.0.0", "duplicate of extra-sphere", "none")
