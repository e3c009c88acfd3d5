#pragma once
#include "dpbo/runner.hpp"

namespace dpbo::cli {

// What `dpbo run` does with no module named: the best private run the installed modules offer.
// Until DP-GIBO exists: random search on Branin whose evaluated values are released through the
// Gaussian mechanism under 1-GDP, the best point chosen from the noisy values.
inline JobSpec default_job() {
    JobSpec job;
    job.algorithm = {"random-search", {{"budget", "60"}, {"value_sensitivity", "0.1"}}};
    job.objective = {"branin", {}};
    job.mechanism = ModuleChoice{"gaussian", {{"mu", "1"}}};
    return job;
}

}  // namespace dpbo::cli
