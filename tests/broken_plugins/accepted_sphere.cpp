// The good plugin among the broken ones: it must load whatever its neighbours do.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

DPBO_PLUGIN(broken_cases::Sphere, "extra-sphere", "1.0.0", "test objective: sum of squares", "none")
