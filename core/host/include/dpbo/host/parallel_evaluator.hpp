#pragma once
// The threaded evaluator behind `dpbo run --workers N`: the host's, not the plugin contract's, since
// only the host decides how a batch is spread over threads or processes.
#include <cstddef>
#include <memory>
#include <vector>

#include "dpbo/evaluator.hpp"

namespace dpbo {

// Evaluates a batch of b ≥ 2 points on up to `workers` threads, as contiguous slices of the batch
// merged back in order. A thread-safe objective (the ThreadSafe capability) serves every slice; any other
// serves the first, and each further slice goes to a replica — an objective built like it, one per
// extra worker. A slice's experiment randomness comes from its own generator, seeded from the
// batch's generator's seed and the slice's number: a deterministic objective gives the values the
// serial evaluator gives (up to the rounding of arithmetic whose order depends on how many points it
// is given at once), a randomised one values that depend on the number of workers. A batch of one point is evaluated as the serial
// evaluator does.
class ParallelEvaluator final : public Evaluator {
public:
    // Throws ValidationError for fewer than 2 workers or fewer replicas than the objective will need.
    ParallelEvaluator(std::size_t workers, std::vector<std::shared_ptr<Objective>> replicas);
    std::size_t workers() const { return workers_; }

protected:
    Evaluations evaluate_batch(Objective& objective, const arma::mat& points,
                               const EvaluationRequest& request) override;

private:
    std::size_t workers_;
    std::vector<std::shared_ptr<Objective>> replicas_;
};

}  // namespace dpbo
