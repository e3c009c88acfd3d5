// schema() never returns: reading the manifest hangs until the probe's time limit. It sleeps
// rather than spins, so the test costs no CPU while it waits.
#include <chrono>
#include <thread>

#include <dpbo/plugin.hpp>

#include "sphere_objective.hpp"

namespace {
class Stuck : public broken_cases::Sphere {
public:
    using Sphere::Sphere;
    static dpbo::ParameterSchema schema() {
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
};
}  // namespace

DPBO_PLUGIN(Stuck, "stuck-sphere", "1.0.0", "its schema never returns", "none")
