#pragma once
// Kusner et al. (2015)'s figure: the regret of the released point λ̃ against ε, one point per
// dp-ucb folder (a run per ε), the repeats beside their median.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// Nothing without a dp-ucb folder whose results hold the released point's regret.
std::vector<Figure> dp_ucb_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
