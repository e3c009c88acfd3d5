#pragma once
#include "dpbo/host/runner.hpp"

namespace dpbo::cli {

// What `dpbo run` does with no module named: the flagship, DP-GIBO, on the paper's first example
// (location of a normal model, seed 003 appendix E): 50 records in 5-D, a degree-2 polynomial
// kernel, B = 0.5, b = 3, T = 150 AdaGrad steps, and the whole path 2-GDP.
inline JobSpec default_job() {
    JobSpec job;
    job.algorithm = {"dp-gibo", {{"iterations", "150"}, {"mu", "2"}, {"clipping_bound", "0.5"}, {"batch_size", "3"}}};
    job.objective = {"normal-location", {}};
    job.roles["surrogate"] = ModuleChoice{"gp",
                                          {{"kernel", "polynomial"},
                                           {"polynomial_degree", "2"},
                                           {"polynomial_offset", "1"},
                                           {"mean", "zero"},
                                           {"standardise", "false"},
                                           {"fit", "none"},
                                           {"noise_variance", "1e-6"}}};
    return job;
}

}  // namespace dpbo::cli
