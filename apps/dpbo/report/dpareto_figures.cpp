#include "report/dpareto_figures.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <fmt/format.h>

#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

using OutputNames = std::pair<std::string, std::string>;

// The folder's two outputs (name, sense), when its results release a two-output front.
std::optional<std::pair<json, json>> two_outputs(const ReportFolder& folder) {
    const json& outputs = folder.first()["objective"].value("outputs", json::array());
    if (!outputs.is_array() || outputs.size() != 2) return std::nullopt;
    for (const json& result : folder.read.results) {
        const json::json_pointer front("/released/pareto_values/value");
        if (!result.contains(front) || !result.at(front).is_array()) return std::nullopt;
    }
    return std::pair{outputs[0], outputs[1]};
}

// A repeat's released front as (first output, second output) pairs sorted by the first, so that a
// staircase through them is the front's attainment boundary.
std::pair<std::vector<double>, std::vector<double>> sorted_front(const json& result) {
    std::vector<std::pair<double, double>> points;
    for (const json& p : result.at(json::json_pointer("/released/pareto_values/value")))
        points.emplace_back(p.at(0).get<double>(), p.at(1).get<double>());
    std::sort(points.begin(), points.end());
    std::pair<std::vector<double>, std::vector<double>> xy;
    for (const auto& [x, y] : points) {
        xy.first.push_back(x);
        xy.second.push_back(y);
    }
    return xy;
}

// ε is a privacy loss spanning decades (DPareto's figures draw it on a log axis); other outputs are
// in the objective's own units.
std::string axis_label(const json& output, bool log) {
    const std::string name = output.value("name", "output");
    const std::string sense = output.value("sense", "minimise");
    if (name == "epsilon") return fmt::format("ε, privacy loss of the trained model ({}){}", sense, log ? " [log scale]" : "");
    return fmt::format("{} ({}) [as the objective reports it]", name, sense);
}

std::string role(const ReportFolder& folder) {
    const std::string algorithm = folder.algorithm();
    if (algorithm == "grid-search") return "grid — a fine grid stands for the near-exact front";
    return algorithm;
}

Figure front_figure(const std::vector<ReportFolder>& folders, const OutputNames& names) {
    Figure figure;
    json first_output, second_output;
    for (std::size_t f = 0; f < folders.size(); ++f) {
        const ReportFolder& folder = folders[f];
        const auto outputs = two_outputs(folder);
        if (!outputs || outputs->first.value("name", "") != names.first ||
            outputs->second.value("name", "") != names.second)
            continue;
        first_output = outputs->first;
        second_output = outputs->second;
        for (std::size_t i = 0; i < folder.read.results.size(); ++i) {
            Series s;
            s.folder = folder.label;
            s.kind = "front";
            s.repeat = folder.repeat_number(i);
            s.x_column = names.first;
            s.y_column = names.second;
            s.colour = static_cast<int>(f);
            s.style = SeriesStyle::front;
            if (i == 0)
                s.legend = fmt::format("{} ({}): {} front{}", folder.label, role(folder), folder.read.results.size(),
                                       folder.read.results.size() == 1 ? "" : "s, one per repeat");
            std::tie(s.x, s.y) = sorted_front(folder.read.results[i]);
            figure.series.push_back(std::move(s));
        }
    }
    figure.log_x = names.first == "epsilon";
    settle_log_scales(figure);
    figure.title = fmt::format("Empirical Pareto fronts: {} against {}", names.second, names.first);
    figure.x_label = axis_label(first_output, figure.log_x);
    figure.y_label = axis_label(second_output, false);
    figure.caption =
        "Each folder's released front (result.json's pareto_values: the evaluated points no other evaluated point "
        "dominates), one staircase per repeat, its points marked; lower-left is better when both outputs are "
        "minimised. The results carry no exact front of their own (evaluation_only holds none): where a folder is a "
        "fine grid-search (e.g. svt-fine-grid.ini), its front is the near-exact one the others are measured against; "
        "without such a folder, none is drawn.";
    return figure;
}

Figure hypervolume_figure(const std::vector<ReportFolder>& folders) {
    bool by_evaluations = true;
    for (const ReportFolder& folder : folders)
        if (folder.has_column("hypervolume") && !folder.has_column("evaluations")) by_evaluations = false;
    const std::string x_column = by_evaluations ? "evaluations" : "iteration";
    Figure figure;
    for (std::size_t f = 0; f < folders.size(); ++f) {
        const ReportFolder& folder = folders[f];
        const std::string legend = fmt::format("{} ({}): median of {}", folder.label, role(folder), folder.traces.size());
        for (Series& s : repeats_and_median(folder, x_column, "hypervolume", static_cast<int>(f), legend))
            figure.series.push_back(std::move(s));
    }
    figure.title = marked_title(fmt::format("Hypervolume of the empirical front over {}",
                                            by_evaluations ? "evaluations" : "iterations"),
                                figure.series);
    figure.evaluation_only = figure.title.find("evaluation only") != std::string::npos;
    figure.x_label = by_evaluations ? "evaluations of the objective [count]" : "iteration [count]";
    figure.y_label = "hypervolume [outputs' units multiplied]";
    figure.caption =
        "Trace column 'hypervolume': the area the front dominates up to the run's reference point (larger is "
        "better). Faint lines: each repeat; bold: the median over the repeats that reached that row. Folders whose "
        "trace has no hypervolume column (random search) are not drawn.";
    return figure;
}

}  // namespace

std::vector<Figure> dpareto_figures(const std::vector<ReportFolder>& folders) {
    std::vector<OutputNames> pairs;
    for (const ReportFolder& folder : folders)
        if (const auto outputs = two_outputs(folder)) {
            const OutputNames names{outputs->first.value("name", ""), outputs->second.value("name", "")};
            if (std::find(pairs.begin(), pairs.end(), names) == pairs.end()) pairs.push_back(names);
        }
    std::vector<Figure> figures;
    for (const OutputNames& names : pairs) {
        Figure figure = front_figure(folders, names);
        if (has_drawable_point(figure)) figures.push_back(std::move(figure));
    }
    Figure hypervolume = hypervolume_figure(folders);
    if (has_drawable_point(hypervolume)) figures.push_back(std::move(hypervolume));
    return figures;
}

}  // namespace dpbo::cli::report
