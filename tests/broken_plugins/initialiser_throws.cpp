// A static initialiser that throws while the library loads: refused, naming the exception and its
// message; every other plugin still loads.
#include <stdexcept>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
struct ThrowsWhenLoaded {
    ThrowsWhenLoaded() { throw std::runtime_error("static initialiser throws"); }
};
const ThrowsWhenLoaded on_load;
}  // namespace

DPBO_PLUGIN(broken_cases::Sphere, "initialiser-throws-sphere", "1.0.0", "never loads", "none")
