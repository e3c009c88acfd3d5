// A static initialiser that writes through a null pointer while the library loads (SIGSEGV).
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
struct SegfaultsWhenLoaded {
    SegfaultsWhenLoaded() {
        // Volatile pointer and target: the compiler can neither see the null (and emit a trap instead)
        // nor drop the store.
        volatile int* volatile nowhere = nullptr;
        *nowhere = 1;
    }
};
const SegfaultsWhenLoaded on_load;
}  // namespace

DPBO_PLUGIN(broken_cases::Sphere, "initialiser-segfaults-sphere", "1.0.0", "never loads", "none")
