#pragma once
// PO-GP-UCB's modeler (Kharkovskii, Dai & Low 2020, Algorithm 2): GP-UCB over the released rows Z,
// asking the curator for the response of each chosen row by its index. Its only inputs are the run's
// objective — which must be released rows (FiniteCandidates with released rows), answering by row index —
// and the loop's settings; it cannot reach the curator's rows X, and its sources include nothing that
// reads them.
#include <string>

#include "dpbo/algorithm.hpp"
#include "dpbo/bo/loop.hpp"

namespace dpbo::po_gp_ucb {

// The GP-UCB loop on the released rows, to the end. Throws ValidationError when the run's objective
// is not a set of public rows. The result releases the best row (its index, released row and
// response) and the trace; a simple regret, computed by the curator from its known optimum, is moved
// to evaluation_only. Its privacy statement is left for the caller to set.
dpbo::RunResult run_modeler(dpbo::RunContext& context, const dpbo::BoLoopSettings& settings,
                            const std::string& algorithm);

}  // namespace dpbo::po_gp_ucb
