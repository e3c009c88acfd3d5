#include "report/trace_figures.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

struct ColumnDrawing {
    std::string title;
    std::string y_label;
    bool log_y = false;
};

bool starts_with(const std::string& text, const std::string& prefix) { return text.rfind(prefix, 0) == 0; }

// How a column is drawn, or nothing for columns that are not values of the search (indices, points,
// timings, acquisition scores): those would bury the figures that matter.
std::optional<ColumnDrawing> drawing(const std::string& column) {
    if (column == "best_value") return ColumnDrawing{"Best value found so far", "best value [objective's units]"};
    if (column == "best_true_value_so_far")
        return ColumnDrawing{"True value of the best point so far", "true value [objective's units]"};
    if (column == "value") return ColumnDrawing{"Value of each evaluation", "value [objective's units]"};
    if (column == "objective_value") return ColumnDrawing{"Objective at the iterate", "f(θ_t) [objective's units]"};
    if (column == "simple_regret" || column.find("regret") != std::string::npos)
        return ColumnDrawing{column == "simple_regret" ? "Simple regret" : column,
                             column == "simple_regret" ? "simple regret f − f* [objective's units, log scale]"
                                                       : column + " [objective's units, log scale]",
                             true};
    if (column == "distance_to_optimum")
        return ColumnDrawing{"Distance to the optimiser", "‖θ − θ*‖₂ [parameter units, log scale]", true};
    if (column == "front_size") return ColumnDrawing{"Points on the empirical front", "front size [points]"};
    // Hypervolume: the searches that trace it declare its figure (dpbo/bo/front_figures.hpp), drawn
    // there once with its reference point explained, not here a second time.
    if (column.find("hypervolume") != std::string::npos) return std::nullopt;
    if (starts_with(column, "value[") || starts_with(column, "best_value["))
        return ColumnDrawing{"Output " + column, column + " [that output's units]"};
    return std::nullopt;
}

// The trace columns worth a figure, in the order the folders first list them.
std::vector<std::string> drawn_columns(const std::vector<ReportFolder>& folders) {
    std::vector<std::string> columns;
    for (const ReportFolder& folder : folders)
        for (const auto& trace : folder.traces) {
            if (!trace) continue;
            for (const std::string& name : trace->names)
                if (drawing(name) && std::find(columns.begin(), columns.end(), name) == columns.end())
                    columns.push_back(name);
        }
    return columns;
}

}  // namespace

std::vector<Figure> trace_figures(const std::vector<ReportFolder>& folders) {
    // Evaluations are what the papers compare at; a trace without them falls back to iterations.
    bool by_evaluations = true;
    for (const ReportFolder& folder : folders)
        for (const auto& trace : folder.traces)
            if (trace && trace->column("evaluations") == nullptr) by_evaluations = false;
    const std::string x_column = by_evaluations ? "evaluations" : "iteration";
    std::vector<Figure> figures;
    for (const std::string& column : drawn_columns(folders)) {
        const ColumnDrawing how = *drawing(column);
        Figure figure;
        figure.x_label = by_evaluations ? "evaluations of the objective [count]" : "iteration [count]";
        figure.y_label = how.y_label;
        figure.log_y = how.log_y;
        for (std::size_t f = 0; f < folders.size(); ++f) {
            const ReportFolder& folder = folders[f];
            const std::string legend =
                fmt::format("{} ({}): median of {}", folder.label, folder.algorithm(), folder.traces.size());
            for (Series& s : repeats_and_median(folder, x_column, column, static_cast<int>(f), legend))
                figure.series.push_back(std::move(s));
        }
        if (figure.series.empty()) continue;
        figure.title = marked_title(fmt::format("{} over {}", how.title, by_evaluations ? "evaluations" : "iterations"),
                                    figure.series);
        figure.evaluation_only = figure.title.find("evaluation only") != std::string::npos;
        figure.caption = fmt::format(
            "Trace column '{}'. Faint lines: each repeat; bold: the median over the repeats that reached that row "
            "(its x the median of their {} there).{}",
            column, x_column, figure.log_y ? " Log scale: values ≤ 0 (an optimum reached exactly) are not drawn." : "");
        settle_log_scales(figure);
        if (has_drawable_point(figure)) figures.push_back(std::move(figure));
    }
    return figures;
}

}  // namespace dpbo::cli::report
