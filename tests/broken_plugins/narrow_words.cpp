// An ordinary plugin, compiled with ARMA_32BIT_WORD (see CMakeLists.txt): its matrices store their
// sizes in 32 bits where the host's use 64, and no mangled name differs, so it links and loads.
// Only the build signature in its header can tell the host.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

DPBO_PLUGIN(broken_cases::Sphere, "narrow-sphere", "1.0.0", "test objective built with 32-bit words", "none")
