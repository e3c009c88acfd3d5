// Loads and lists fine; its constructor writes through a null pointer (SIGSEGV): the run must die
// naming the module, its file, the signal and that it was being created.
#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class CrashesWhenMade : public broken_cases::Sphere {
public:
    using Sphere::schema;
    explicit CrashesWhenMade(const dpbo::ParameterSet& p) : Sphere(p) {
        // Volatile pointer and target: the compiler can neither see the null (and emit a trap instead)
        // nor drop the store.
        volatile int* volatile nowhere = nullptr;
        *nowhere = 1;
    }
};
}  // namespace

DPBO_PLUGIN(CrashesWhenMade, "crashing-constructor-objective", "1.0.0", "its constructor writes address 0", "none")
