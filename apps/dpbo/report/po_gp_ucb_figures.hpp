#pragma once
// PO-GP-UCB's figures (Kharkovskii et al. 2020): simple regret against iterations, a line per folder
// labelled by its ε and r, and the final regret against the projection dimension r.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// Nothing without a po-gp-ucb folder.
std::vector<Figure> po_gp_ucb_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
