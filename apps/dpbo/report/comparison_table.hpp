#pragma once
// The report's first table: one row per run folder or study, side by side — the algorithm and
// objective, the best point released (by dimension name), the released value with the standard
// deviation of the noise its release added, a warning when that noise dominates the differences the
// reader would compare, the privacy spent and the evaluations. Only released numbers are shown as
// released; an evaluation-only figure is labelled so, and none enters the warning.
#include <optional>
#include <string>
#include <vector>

#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// A run's released value and the noise its own release record states (result.json's
// privacy_over_run.noise: the release that lists the value's name in released_as).
struct ReleasedValueWithNoise {
    std::string name;
    double value = 0.0;
    // The standard deviation of the added noise: 0 for a value released exactly (a run that is not
    // private); nothing when the run is private but no recorded release of additive noise made it.
    std::optional<double> noise_sd;
    std::string noise_text;  // "Laplace, scale 0.2", "exact: not privatised", "noise not recorded"
    // The other numbers of the same release, when the run released them as a list too: the
    // candidates the value was chosen among (random search's noisy_values, whose best is released).
    std::vector<double> siblings;
};

std::optional<ReleasedValueWithNoise> released_value(const ReportFolder& folder);

// The warnings of each folder's row (parallel to folders), by the rule docs/reports.md states:
// (a) against another row on the same objective with the same parameters: |v_i − v_j| < 2·√(s_i² + s_j²) with s_i or s_j > 0;
// (b) within the run, when the value was chosen among the K ≥ 2 numbers of its own release: the gap
//     to the nearest other of them is below 2·√2·s_i (twice the s.d. of the difference of two).
std::vector<std::vector<std::string>> noise_warnings(const std::vector<ReportFolder>& folders);

std::string comparison_table_html(const std::vector<ReportFolder>& folders);

}  // namespace dpbo::cli::report
