#pragma once
// Lines 2–8 of Kusner et al.'s Algorithm 1 (and line 2 of Algorithm 2, with exact observations):
// GP-UCB over the finite set Λ with the paper's β_t, a zero-mean prior with the user's normalised
// kernel and the objective's declared observation noise.
#include <cstddef>
#include <vector>

#include <armadillo>

#include "dpbo/algorithm.hpp"
#include "dpbo/gp/kernel.hpp"
#include "dpbo/result.hpp"

namespace dpbo::dp_ucb {

struct GpUcbPhase {
    std::vector<std::size_t> rows;  // λ_1..λ_T as rows of Λ
    arma::vec model_values;         // v_1..v_T in the maximisation sense (negated for a minimised objective)
    arma::vec final_mean;           // μ_T over Λ, maximisation sense
    dpbo::Trace trace;
};

// `noise_variance`: σ² (Algorithm 1) or a numerical jitter (Algorithm 2, which also never repeats a
// candidate: an exact observation leaves nothing to learn there). `sign`: +1 maximised, −1 minimised.
GpUcbPhase run_gp_ucb_phase(dpbo::RunContext& context, const arma::mat& candidates, const dpbo::gp::Kernel& kernel,
                            double noise_variance, double delta, std::size_t budget, bool repeat_candidates,
                            double sign);

}  // namespace dpbo::dp_ucb
