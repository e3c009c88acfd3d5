// libdpbo-mpi.so's entry point: the Module interface over the session, the coordinator, the
// evaluator and the worker loop of this folder.
#include "mpi/mpi_module.hpp"

#include "mpi/mpi_coordinator.hpp"
#include "mpi/mpi_evaluator.hpp"
#include "mpi/mpi_session.hpp"

namespace dpbo::cli::mpi {

namespace {

class SessionModule final : public Module {
public:
    int start() override { return mpi::start(); }
    int ranks() const override { return mpi::ranks(); }
    void set_timeout(double seconds) override { coordinator().set_timeout(seconds); }
    std::unique_ptr<Evaluator> evaluator(std::size_t repeat) override {
        return std::make_unique<MpiEvaluator>(coordinator(), repeat);
    }
    int serve(const std::function<std::optional<WorkerJob>()>& prepare) override { return mpi::serve(prepare); }
    int finish(int exit_code) override { return mpi::finish(exit_code); }
};

}  // namespace

}  // namespace dpbo::cli::mpi

extern "C" __attribute__((visibility("default"))) dpbo::cli::mpi::Module* dpbo_mpi_module() {
    static dpbo::cli::mpi::SessionModule module;
    return &module;
}
