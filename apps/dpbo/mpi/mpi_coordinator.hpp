#pragma once
// Rank 0's view of the worker ranks: whether each reported that it built the job's objective (and
// from which host), which are evaluating a slice, and how they are all stopped at the end.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpbo::cli::mpi {

class Coordinator {
public:
    explicit Coordinator(int ranks);

    int ranks() const { return static_cast<int>(hosts_.size()); }
    std::size_t workers() const { return hosts_.size() - 1; }
    // "rank 2 on node7" (the host once the rank has reported it).
    std::string name(int rank) const;

    // --mpi-timeout: the longest wait for any one answer from a worker.
    void set_timeout(double seconds) { timeout_ = seconds; }
    double timeout() const { return timeout_; }

    // Waits, the first time, for every worker's report (each builds the job's objective from the same
    // command line while rank 0 does). Throws the lowest failed rank's error with its kind
    // (ValidationError or RunError) and the rank's name, or RunError naming the ranks that did not
    // report within the timeout.
    void await_workers();

    // A slice was sent to `rank`; its answer came.
    void sent(int rank) { busy_.at(static_cast<std::size_t>(rank)) = true; }
    void answered(int rank) { busy_.at(static_cast<std::size_t>(rank)) = false; }

    // Takes the reports still on their way, then tells every worker to stop. Returns the names of the
    // workers that could not be told (busy with a slice that never came back, or silent): then only
    // aborting the MPI job ends them.
    std::vector<std::string> stop_workers();

private:
    // Receives reports until every worker has given one or the timeout passes.
    void collect_reports();

    std::vector<std::string> hosts_;  // by rank; empty until reported
    std::vector<bool> reported_;
    std::vector<bool> busy_;
    std::vector<std::uint64_t> failure_kind_;
    std::vector<std::string> failure_;
    double timeout_;
    bool awaited_ = false;
};

}  // namespace dpbo::cli::mpi
