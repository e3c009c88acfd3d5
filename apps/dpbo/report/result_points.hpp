#pragma once
// Series read from result.json rather than trace.csv: one point per repeat at two JSON pointers
// (faint), and one point per folder at the medians over its repeats (bold), for figures whose x is
// a folder's setting (ε, r) and whose y a scalar each repeat reports.
#include <optional>
#include <string>
#include <vector>

#include "report/figure.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// The number at `pointer` (RFC 6901) in repeat `index`'s result.json, or nothing where it is absent
// or not a number.
std::optional<double> result_number(const ReportFolder& folder, std::size_t index, const std::string& pointer);

// Whether every repeat of the folder has a number at both pointers.
bool has_result_numbers(const ReportFolder& folder, const std::string& x_pointer, const std::string& y_pointer);

// Kind "repeats": the folder's repeats as points (x, y) read at the pointers.
Series repeat_points(const ReportFolder& folder, const std::string& x_pointer, const std::string& y_pointer,
                     int colour);

// Kind "folder medians": per folder, in the order given, the medians over its repeats at both
// pointers, sorted by x so that the line through them reads left to right.
Series folder_medians(const std::vector<const ReportFolder*>& folders, const std::string& x_pointer,
                      const std::string& y_pointer, int colour, const std::string& legend);

}  // namespace dpbo::cli::report
