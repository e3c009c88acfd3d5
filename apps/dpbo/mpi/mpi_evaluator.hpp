#pragma once
// Rank 0's evaluator under mpirun: each batch is cut into slices as the threaded evaluator cuts it
// (dpbo/host/batch_slices.hpp), one per worker rank, with the same generator per slice, so K ranks
// (K − 1 workers) give what --workers K−1 gives: a deterministic objective the serial values, a
// randomised one values that depend on K. A batch that makes one slice (one point, or a single
// worker) is drawn from a generator seeded as the batch's own, as the serial evaluator draws it. Rank 0 evaluates nothing itself; the base class
// checks the merged batch and adds the observation noise here, on rank 0.
#include <cstddef>
#include <cstdint>

#include "dpbo/evaluator.hpp"

namespace dpbo::cli::mpi {

class Coordinator;

class MpiEvaluator final : public Evaluator {
public:
    // `repeat` tells the workers when to start from a fresh objective, as rank 0 does for each repeat.
    MpiEvaluator(Coordinator& coordinator, std::size_t repeat);

protected:
    // Waits for every slice (or the timeout) before reporting any failure, so no worker is left
    // holding an answer. Throws the failing worker's error with its kind, naming the rank, its host
    // and its points; RunError naming the ranks that gave no answer within --mpi-timeout.
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;

private:
    Coordinator& coordinator_;
    std::size_t repeat_;
};

}  // namespace dpbo::cli::mpi
