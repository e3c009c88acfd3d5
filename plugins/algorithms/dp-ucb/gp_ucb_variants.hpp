#pragma once
// Kusner et al. (2015) Algorithms 1 (noisy observations) and 2 (noise-free observations): GP-UCB
// over a finite Λ, then λ̃ by the `selection` role and the validation gain by the `mechanism` role.
#include "dp_ucb_settings.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/result.hpp"

namespace dpbo::dp_ucb {

dpbo::RunResult run_gp_ucb_variant(dpbo::RunContext& context, const DpUcbSettings& settings);

}  // namespace dpbo::dp_ucb
