#include "report/slice_figures.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// A folder's points per slice, at most (its first repeats whose rows fit, the first always): beyond
// some thousands the points hide each other, and each one weighs on the page twice (SVG and data).
constexpr std::size_t kSlicePointsPerFolder = 5000;

// The trace's value of each evaluated point: the objective's value there, or at the iterate.
std::string value_column(const ReportFolder& folder) {
    for (const char* name : {"value", "objective_value"})
        if (folder.has_column(name)) return name;
    if (folder.traces.empty() || !folder.traces.front()) return {};
    for (const std::string& name : folder.traces.front()->names)
        if (name.rfind("value[", 0) == 0 && folder.has_column(name)) return name;
    return {};
}

// The trace column holding dimension `index`: x[i] (evaluated points) or theta[i] (iterates).
std::string coordinate_column(const ReportFolder& folder, std::size_t index) {
    for (const std::string& name : {fmt::format("x[{}]", index), fmt::format("theta[{}]", index)})
        if (folder.has_column(name)) return name;
    return {};
}

bool log_scaled(const ReportFolder& folder, std::size_t index) {
    const json& result = folder.first();
    if (!result.contains("objective") || !result["objective"].contains("dimensions")) return false;
    const json& dimension = result["objective"]["dimensions"][index];
    return dimension.is_object() && dimension.value("scale", std::string()) == "log";
}

}  // namespace

std::vector<Figure> slice_figures(const std::vector<ReportFolder>& folders) {
    std::vector<std::string> names;
    for (const ReportFolder& folder : folders)
        for (const std::string& name : folder.dimension_names())
            if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    std::vector<Figure> figures;
    for (const std::string& name : names) {
        Figure figure;
        bool log_x = true;
        std::string label;
        for (std::size_t f = 0; f < folders.size(); ++f) {
            const ReportFolder& folder = folders[f];
            const std::vector<std::string> dims = folder.dimension_names();
            const auto at = std::find(dims.begin(), dims.end(), name);
            if (at == dims.end()) continue;
            const std::size_t index = static_cast<std::size_t>(at - dims.begin());
            const std::string x = coordinate_column(folder, index), y = value_column(folder);
            if (x.empty() || y.empty()) continue;
            log_x = log_x && log_scaled(folder, index);
            label = folder.column_label(x);
            const bool evaluation_only = folder.is_evaluation_only(x) || folder.is_evaluation_only(y);
            std::size_t points = 0, drawn = 0;
            for (std::size_t i = 0; i < folder.traces.size(); ++i) {
                points += folder.traces[i]->rows;
                if (i > 0 && points > kSlicePointsPerFolder) break;
                ++drawn;
                Series s = repeat_series(folder, i, x, y, static_cast<int>(f), SeriesStyle::points);
                figure.series.push_back(std::move(s));
            }
            const std::string repeats =
                drawn < folder.traces.size() ? fmt::format(", repeats 1–{} of {}", drawn, folder.traces.size()) : "";
            figure.series[figure.series.size() - drawn].legend = fmt::format(
                "{} ({}): {}{}{}", folder.label, folder.algorithm(), y, repeats, evaluation_only_mark(evaluation_only));
        }
        if (figure.series.empty()) continue;
        figure.title = marked_title(fmt::format("Slice: value of each evaluation against {}", name), figure.series);
        figure.evaluation_only = figure.title.find("evaluation only") != std::string::npos;
        figure.x_label = label.empty() ? name : label;
        figure.y_label = "value [objective's units]";
        figure.log_x = log_x;
        figure.caption = fmt::format(
            "Each point is one evaluation (or iterate): its {} and the objective's value there, every study trial "
            "and each folder's repeats up to {} points (the legend says where fewer repeats are drawn). The other "
            "dimensions vary too, so a slice shows where good values were found along this one, not a cut of the "
            "objective.",
            name, kSlicePointsPerFolder);
        settle_log_scales(figure);
        if (has_drawable_point(figure)) figures.push_back(std::move(figure));
    }
    return figures;
}

}  // namespace dpbo::cli::report
