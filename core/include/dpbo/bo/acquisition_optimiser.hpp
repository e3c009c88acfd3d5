#pragma once
// Maximising an acquisition: over a box by a quasi-random sweep scored in one batch, then local
// refinement of the best sweep points (NLopt; L-BFGS when the acquisition has gradients, BOBYQA
// otherwise); over a finite candidate set by an exhaustive, chunked batch scan; and greedy batches
// that condition each choice on the previous ones.
#include <cstddef>
#include <vector>

#include <armadillo>

#include "dpbo/acquisition.hpp"

namespace dpbo {

class ExperimentRng;
class Surrogate;

struct AcquisitionOptimiserSettings {
    std::size_t sweep_points = 400;       // scored in one batch
    std::size_t local_starts = 3;         // best sweep points refined locally
    std::size_t local_evaluations = 30;   // per local start
    // Unit-cube sweep to reuse instead of drawing a new one (sweep_points × dim). A loop that keeps
    // one sweep for the whole run lets the surrogate update its cached predictions there instead
    // of recomputing them (see GaussianProcess's query cache).
    const arma::mat* fixed_unit_sweep = nullptr;
};

// Randomly shifted Halton points in [0, 1]^dim (Cranley–Patterson rotation from `rng`).
arma::mat halton_points(std::size_t count, std::size_t dim, ExperimentRng& rng);

struct AcquisitionOptimum {
    arma::rowvec point;
    double score = 0.0;
    std::size_t evaluations = 0;  // acquisition evaluations spent
};

AcquisitionOptimum maximise_in_box(const Acquisition& acquisition, const Surrogate& model,
                                   const AcquisitionContext& context, const arma::rowvec& lower,
                                   const arma::rowvec& upper, const AcquisitionOptimiserSettings& settings,
                                   ExperimentRng& rng);

// Index of the best row of `candidates` (the lowest index among ties); rows flagged in `excluded`
// (if non-empty, one flag per row) are skipped. Throws RunError when every row is excluded.
std::size_t best_candidate(const Acquisition& acquisition, const Surrogate& model,
                           const AcquisitionContext& context, const arma::mat& candidates,
                           const std::vector<bool>& excluded = {});

// b points chosen one at a time; each later choice sees the earlier ones in context.pending.
arma::mat greedy_batch_in_box(const Acquisition& acquisition, const Surrogate& model, AcquisitionContext context,
                              std::size_t batch_size, const arma::rowvec& lower, const arma::rowvec& upper,
                              const AcquisitionOptimiserSettings& settings, ExperimentRng& rng);

}  // namespace dpbo
