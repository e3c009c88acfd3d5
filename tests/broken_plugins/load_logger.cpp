// A good objective that notes every process that loads it: its static initialiser appends
// "<pid> <parent pid>" to the file named by DPBO_TEST_LOAD_LOG. The tests tell from it whether a
// command loaded the library itself (its parent is the test) or only through a probe (its parent is
// dpbo).
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
struct LogsLoad {
    LogsLoad() {
        if (const char* log = std::getenv("DPBO_TEST_LOAD_LOG"); log != nullptr && *log != '\0')
            std::ofstream(log, std::ios::app) << ::getpid() << ' ' << ::getppid() << '\n';
    }
};
const LogsLoad on_load;
}  // namespace

DPBO_PLUGIN(broken_cases::Sphere, "load-logging-sphere", "1.0.0", "notes each process that loads it", "none")
