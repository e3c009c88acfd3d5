#pragma once
// A slice per hyperparameter: the value of each evaluation against that dimension's coordinate,
// one figure per dimension name, every folder (and study) whose objective has that dimension in it.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

std::vector<Figure> slice_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
