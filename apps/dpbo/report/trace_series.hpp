#pragma once
// A folder's repeats of one trace column against another as series: each repeat faint, the median
// over repeats bold.
#include <string>
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// Repeat `index` of the folder: its trace's column `y_column` against `x_column`, drawn in `style`.
Series repeat_series(const ReportFolder& folder, std::size_t index, const std::string& x_column,
                     const std::string& y_column, int colour, SeriesStyle style);

// Nothing when a repeat's trace lacks either column. The median's x is the median of the x column
// row by row, so that runs whose batch sizes differ still share an axis of evaluations.
std::vector<Series> repeats_and_median(const ReportFolder& folder, const std::string& x_column,
                                       const std::string& y_column, int colour, const std::string& legend);

// " — evaluation only (not released)" for such a column, else nothing: legends say so.
std::string evaluation_only_mark(bool evaluation_only);

// The figure's title with its evaluation-only mark: all its series, some or none.
std::string marked_title(const std::string& title, const std::vector<Series>& series);

}  // namespace dpbo::cli::report
