#pragma once
// How a batch is cut into slices for several evaluators, which generator each slice gets, and how the
// slices' results are put back together. The threaded evaluator (ParallelEvaluator) and the MPI one
// (dpbo run under mpirun) share them, so that W threads and W worker ranks evaluate the same slices
// with the same generators and give the same values.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "dpbo/evaluation.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

struct BatchSlice {
    std::size_t first = 0;  // the slice's first row in the batch
    std::size_t count = 0;
};

// min(workers, points) contiguous slices in batch order, sizes differing by at most one (the first
// points % slices slices take the extra point). At least one slice, empty for an empty batch.
std::vector<BatchSlice> batch_slices(std::size_t points, std::size_t workers);

// The seed of slice `slice` of a batch split across evaluators, derived from the seed of the batch's
// own generator (`base`, distinct per batch: see Evaluator::evaluate).
std::uint64_t slice_seed(std::uint64_t base, std::size_t slice);

// For a request carrying trial noise (a PrivateTrials objective), one source per slice, each keyed
// from the batch's trial stream in slice order (PrivacyNoiseSource::derive); empty otherwise.
std::vector<PrivacyNoiseSource> slice_trial_noise_sources(const EvaluationRequest& request, std::size_t slices);

// The slices' results merged in batch order onto `points`. Throws RunError naming `who` when a slice
// returned another number of values than it had points, which would shift every later point's values
// onto another point. Candidate rows are kept when every slice gave one per point; trial events are
// joined in batch order.
Evaluations merge_slices(const arma::mat& points, const std::vector<BatchSlice>& slices,
                         const std::vector<Evaluations>& parts, const std::string& who);

}  // namespace dpbo
