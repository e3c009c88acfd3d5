#pragma once
// The figures every algorithm gets: each value-like trace column (values found, regret, distance to
// the optimum, front size) over evaluations (hypervolume is drawn where the searches that trace it declare it), all folders that have it in one plot.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

std::vector<Figure> trace_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
