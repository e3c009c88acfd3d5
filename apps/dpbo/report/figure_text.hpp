#pragma once
// The texts of a declared figure as the page shows them: placeholders filled in for a folder, and an
// axis label with its unit and scale.
#include <cstddef>
#include <string>

#include "dpbo/figure_spec.hpp"
#include "report/report_folder.hpp"

namespace dpbo::cli::report {

// {folder}, {repeats}, {folders} and {/json/pointer} (into the folder's first result.json) replaced,
// {{ and }} made single braces (see dpbo/figure_spec.hpp). A pointer with nothing there reads "?";
// an unknown name is left as written, so that its author sees it on the page.
std::string fill_placeholders(const std::string& text, const ReportFolder& folder, std::size_t folders_on_figure);

// "label [unit, log scale]", "label [log scale]", "label [unit]" or "label".
std::string axis_label(const std::string& label, const std::string& unit, bool log);

}  // namespace dpbo::cli::report
