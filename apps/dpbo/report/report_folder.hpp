#pragma once
// The folders a report is about: each one's repeats (read as `dpbo summary` reads them) with their
// traces, under the label the page gives the folder.
#include <optional>
#include <string>
#include <vector>

#include "dpbo/figure_spec.hpp"
#include "report/trace_table.hpp"
#include "result_folder.hpp"

namespace dpbo::cli::report {

struct ReportFolder {
    std::string label;  // its name, or its path where names repeat
    ResultFolder read;
    std::vector<std::optional<TraceTable>> traces;  // parallel to read.results
    // The figures its algorithm declared (result.json's "figures", read from the first repeat: the
    // repeats of a folder share their job); none for results written before figures were declared.
    std::vector<FigureSpec> figures;

    const json& first() const { return read.results.front(); }
    std::string algorithm() const { return first()["job"]["algorithm"]["name"].get<std::string>(); }
    // The repeat number the result carries (1-based), else its position.
    int repeat_number(std::size_t index) const;
    // Whether every repeat's trace has the column.
    bool has_column(const std::string& name) const;
    // Whether the column is evaluation-only in the result files.
    bool is_evaluation_only(const std::string& name) const;
};

std::vector<ReportFolder> read_report_folders(const std::vector<std::string>& folders);

}  // namespace dpbo::cli::report
