// A static initialiser that ends the process with exit(0) while the library loads: in the host it
// would end `dpbo list` silently with success.
#include <cstdlib>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
struct ExitsWhenLoaded {
    ExitsWhenLoaded() { std::exit(0); }
};
const ExitsWhenLoaded on_load;
}  // namespace

DPBO_PLUGIN(broken_cases::Sphere, "initialiser-exits-sphere", "1.0.0", "never loads", "none")
