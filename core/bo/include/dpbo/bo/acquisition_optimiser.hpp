#pragma once
// Maximising an acquisition: over a box by one of several strategies (a quasi-random sweep scored
// in one batch and local refinement by NLopt — L-BFGS when the acquisition has gradients, BOBYQA
// otherwise —, or NLopt's DIRECT); over a finite candidate set by an exhaustive, chunked batch
// scan; and greedy batches that condition each choice on the previous ones.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <armadillo>

#include "dpbo/acquisition.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo {

class ExperimentRng;
class Surrogate;

// How maximise_in_box searches a box. Each spends at most the evaluations its settings allow.
enum class AcquisitionStrategy {
    // sweep_points, then local_starts local searches of local_evaluations each from the best
    // distinct sweep points: sweep_points + local_starts × local_evaluations in all.
    SweepLocal,
    // sweep_points, then local searches of at most local_evaluations each — from warm_starts first,
    // then from the best distinct sweep points — until local_starts × local_evaluations are spent
    // (a search that converges early leaves its rest to further starts).
    Multistart,
    // NLopt's DIRECT-L with randomised tie breaks over the whole box, direct_evaluations in all.
    Direct,
    // Direct, then one local search of local_evaluations from its best point.
    DirectLocal,
    // sweep_points, then DIRECT-L with direct_evaluations; the better of the two.
    SweepDirect,
    // Our DIRECT-L with randomised tie breaks, direct_evaluations in all, each iteration's new
    // centres scored in one batched prediction (NLopt asks for one point at a time).
    BatchedDirect,
    // sweep_points, then BatchedDirect with direct_evaluations; the better of the two.
    SweepBatchedDirect,
};

// "sweep-local", "multistart", "direct", "direct-local", "sweep-direct", "batched-direct",
// "sweep-batched-direct": the names users choose from.
std::string_view to_string(AcquisitionStrategy strategy);
std::optional<AcquisitionStrategy> acquisition_strategy_named(std::string_view name);
std::vector<std::string> acquisition_strategy_names();

struct AcquisitionOptimiserSettings {
    AcquisitionStrategy strategy = AcquisitionStrategy::SweepLocal;
    std::size_t sweep_points = 400;        // scored in one batch (sweep strategies)
    std::size_t local_starts = 3;          // local searches (see the strategy)
    std::size_t local_evaluations = 30;    // per local search
    std::size_t direct_evaluations = 500;  // DIRECT's evaluations (direct strategies)
    // Unit-cube sweep to reuse instead of drawing a new one (sweep_points × dim). A loop that keeps
    // one sweep for the whole run lets the surrogate update its cached predictions there instead
    // of recomputing them (see GaussianProcess's query cache).
    const arma::mat* fixed_unit_sweep = nullptr;
    // Multistart: points (one per row, inside the box) to start local searches from before the
    // sweep's best, e.g. the incumbent and the previous maximiser.
    arma::mat warm_starts;
};

// The optimiser's user keys (optimiser, acquisition_evaluations, direct_evaluations, local_starts,
// local_evaluations) with their defaults, and the settings they give: one budget of
// acquisition_evaluations split between the strategy's phases. Budgets that leave a phase nothing
// are refused naming the keys. Every algorithm that maximises an acquisition over a box takes them.
ParameterSchema& add_acquisition_optimiser_keys(ParameterSchema& schema);
AcquisitionOptimiserSettings acquisition_optimiser_settings(const ParameterSet& parameters);

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
// (if non-empty, one flag per row) are never chosen. The set is scored in one call while its
// posterior is small (candidates × (model size + 1) ≤ 2^24), so a GP surrogate extends the
// predictions it cached for it; beyond, in chunks of 4096 rows without the excluded ones. Throws
// RunError when every row is excluded.
std::size_t best_candidate(const Acquisition& acquisition, const Surrogate& model, const AcquisitionContext& context,
                           const arma::mat& candidates, const std::vector<bool>& excluded = {});

// b points chosen one at a time; each later choice sees the earlier ones in context.pending.
arma::mat greedy_batch_in_box(const Acquisition& acquisition, const Surrogate& model, AcquisitionContext context,
                              std::size_t batch_size, const arma::rowvec& lower, const arma::rowvec& upper,
                              const AcquisitionOptimiserSettings& settings, ExperimentRng& rng);

}  // namespace dpbo
