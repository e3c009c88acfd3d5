#pragma once
#include "dp_gibo_settings.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/result.hpp"

namespace dpbo::dp_gibo {

// Runs Algorithm 1 of the DP-GIBO paper (seed 003) once; see dp_gibo.cpp for the method.
dpbo::RunResult run_dp_gibo(dpbo::RunContext& context, const DpGiboSettings& settings);

}  // namespace dpbo::dp_gibo
