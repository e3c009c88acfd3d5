#pragma once
// What `dpbo run` uses of MPI, as one interface: the commands reach it through mpi_loader.hpp, which
// loads libdpbo-mpi.so (this folder, with Open MPI's libraries) only in a process mpirun started as
// one of several ranks. Every other command, and `import dpbo`, never loads Open MPI (six libraries,
// most of a millisecond of every start). Both sides are built together from this header: it is no
// plugin interface and has no ABI of its own.
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>

#include "dpbo/evaluator.hpp"
#include "mpi/mpi_worker.hpp"

namespace dpbo::cli::mpi {

// How long rank 0 waits for a worker's report or a slice's values unless --mpi-timeout says otherwise.
constexpr double kDefaultTimeoutSeconds = 3600.0;

class Module {
public:
    // MPI_Init, once; this process's rank (mpi_session.hpp).
    virtual int start() = 0;
    // After start(): the number of ranks.
    virtual int ranks() const = 0;
    // Rank 0, after start(): the longest wait for a worker's answer (--mpi-timeout), and an evaluator
    // that sends each batch's slices to the workers (mpi_evaluator.hpp).
    virtual void set_timeout(double seconds) = 0;
    virtual std::unique_ptr<Evaluator> evaluator(std::size_t repeat) = 0;
    // A worker rank's whole life (mpi_worker.hpp).
    virtual int serve(const std::function<std::optional<WorkerJob>()>& prepare) = 0;
    // The end of the process (mpi_session.hpp's finish).
    virtual int finish(int exit_code) = 0;

protected:
    ~Module() = default;
};

}  // namespace dpbo::cli::mpi

// libdpbo-mpi.so's one entry point: its module, which lives as long as the process.
extern "C" dpbo::cli::mpi::Module* dpbo_mpi_module();
