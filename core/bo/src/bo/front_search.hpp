#pragma once
// The several-output branch of run_data_independent_search: random or grid search over an objective
// with k ≥ 2 outputs (DPareto's baselines) keeps the empirical Pareto front instead of a best point,
// and — for two outputs and a reference point — its exact hypervolume after every batch.
#include "dpbo/algorithm.hpp"
#include "dpbo/bo/search_release.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

// Refuses a mechanism: nothing here privatises a front (the front is for trusted analysts, as in
// DPareto's threat model), so the run says it is not private.
RunResult run_front_search(RunContext& context, const DataIndependentSearch& search);

}  // namespace dpbo
