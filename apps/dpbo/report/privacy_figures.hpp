#pragma once
// ε spent over the run: each repeat's privacy_over_run (result.json, written by the run from its
// ledger's log composed again release by release on its own accountant) against the release index,
// all folders in one figure per unit (ε at a δ, or μ). Studies have no such record and are left out.
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

std::vector<Figure> privacy_figures(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
