// A static initialiser that calls abort() while the library loads (SIGABRT).
#include <cstdlib>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
struct AbortsWhenLoaded {
    AbortsWhenLoaded() { std::abort(); }
};
const AbortsWhenLoaded on_load;
}  // namespace

DPBO_PLUGIN(broken_cases::Sphere, "initialiser-aborts-sphere", "1.0.0", "never loads", "none")
