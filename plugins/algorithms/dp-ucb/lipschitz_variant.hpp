#pragma once
// Kusner et al. (2015) Algorithm 3: any BO run for T steps (the open BO loop with the surrogate and
// acquisition roles), then f_BO + Laplace noise, ε-DP under Assumption 2 given the objective's
// declared constants.
#include <string>
#include <vector>

#include "dp_ucb_settings.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/result.hpp"

namespace dpbo::dp_ucb {

// The constants Algorithm 3 line 5 needs, by the names DeclaredConstants::declared_constants() uses.
const std::vector<std::string>& assumption2_constant_names();

dpbo::RunResult run_lipschitz_variant(dpbo::RunContext& context, const DpUcbSettings& settings);

}  // namespace dpbo::dp_ucb
