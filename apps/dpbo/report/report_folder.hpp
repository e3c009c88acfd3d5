#pragma once
// The folders a report is about: each one's repeats (read as `dpbo summary` reads them) with their
// traces, under the label the page gives the folder.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpbo/figure_spec.hpp"
#include "dpbo/host/registry.hpp"
#include "report/trace_table.hpp"
#include "result_folder.hpp"

namespace dpbo::cli::report {

struct ReportFolder {
    std::string label;  // its name, or its path where names repeat
    // A study file (dpbo study create) read as one repeat: its result so far, its told trials as the
    // trace (report/study_source.hpp). Otherwise a run's output folder.
    bool study = false;
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
    // The objective's dimension names, as the result declares them (objective.dimensions); for
    // results written before dimensions were recorded, x[0], x[1], … as their traces name them.
    std::vector<std::string> dimension_names() const;
    // What a trace column is called on the page: a point's coordinate ("x[1]", "theta[1]") by its
    // dimension's name and scale ("learning_rate [log scale]"), any other column as it is.
    std::string column_label(const std::string& column) const;
    // The dimension a coordinate column ("x[i]" or "theta[i]") holds, or nothing.
    std::optional<std::size_t> coordinate_of(const std::string& column) const;
};

// Each argument is a run's output folder or a study file; ValidationError naming it when it is
// neither. `load_plugins` is called once, before the first study is read (a study replays its
// algorithm), with the registry the studies are read with.
std::vector<ReportFolder> read_report_folders(const std::vector<std::string>& folders, PluginRegistry& registry,
                                              const std::function<void()>& load_plugins);

}  // namespace dpbo::cli::report
