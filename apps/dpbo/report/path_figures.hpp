#pragma once
// 2-D paths: where a gradient method's iterates θ_t went, when the search space has two dimensions
// (trace columns theta[0] and theta[1], and no theta[2]).
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// One figure per folder whose traces hold a 2-D path; nothing otherwise.
std::vector<Figure> path_figures(const ReportFolder& folder);

}  // namespace dpbo::cli::report
