#pragma once
// DPareto's figures (Avent et al. 2020): the empirical Pareto fronts of the folders' two outputs
// overlaid — DPareto, random search, a grid, a fine grid standing for the near-exact front — and
// the hypervolume of the front against evaluations.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// One front figure per pair of output names the folders release fronts for, then the hypervolume
// figure of every folder whose trace has that column; nothing when no folder has either.
std::vector<Figure> dpareto_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
