#pragma once
// DP-GIBO's figures (Ye et al.): per iteration, the bias proxy Tr Σ∇(θ_t) its step rule watches
// against the norm of the Gaussian noise the privatised gradient carries.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// One figure per dp-gibo folder; nothing for other algorithms.
std::vector<Figure> dp_gibo_figures(const ReportFolder& folder);

}  // namespace dpbo::cli::report
