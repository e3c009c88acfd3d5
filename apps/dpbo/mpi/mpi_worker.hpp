#pragma once
// A worker rank of `dpbo run` under mpirun: it evaluates the slices rank 0 sends and nothing else.
// It holds an objective and an experiment generator per slice — never a privacy ledger, an
// accountant or a privacy-noise source: those exist on rank 0 only, and nothing here can reach them.
#include <functional>
#include <memory>
#include <optional>

namespace dpbo {
class Objective;
}

namespace dpbo::cli::mpi {

// The job's objective as rank 0 has it, and fresh ones for later repeats (rank 0 starts each
// repeat from a fresh objective; so does a worker).
struct WorkerJob {
    // Holds what the objectives come from (the plugin libraries): declared first, so it is destroyed
    // after the objective.
    std::function<std::shared_ptr<Objective>()> fresh_objective;
    std::shared_ptr<Objective> objective;
};

// The rest of a worker rank's life after MPI started: builds the job with `prepare` (which reads the
// same command line rank 0 reads and creates the objective the same way, so bad input is refused
// alike; none: nothing to serve, e.g. --help), reports the outcome and its host to rank 0, then
// answers rank 0's batches until told to stop. Every error goes to rank 0, which reports it; the
// worker prints nothing. Returns 0.
int serve(const std::function<std::optional<WorkerJob>()>& prepare);

}  // namespace dpbo::cli::mpi
