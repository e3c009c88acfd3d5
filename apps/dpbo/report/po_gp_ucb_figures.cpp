#include "report/po_gp_ucb_figures.hpp"

#include <fmt/format.h>

#include "report/result_points.hpp"
#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// The release role (random projection) carries ε, δ and r; the final simple regret is computed from
// the objective's optimum: evaluation only.
constexpr const char* kEpsilon = "/job/release/parameters/epsilon";
constexpr const char* kR = "/job/release/parameters/r";
constexpr const char* kFinalRegret = "/evaluation_only/simple_regret/value";

std::string setting(const ReportFolder& folder, const char* pointer) {
    const json::json_pointer at(pointer);
    return folder.first().contains(at) && folder.first().at(at).is_number()
               ? fmt::format("{:g}", folder.first().at(at).get<double>())
               : std::string("?");
}

Figure regret_over_iterations(const std::vector<const ReportFolder*>& folders) {
    Figure figure;
    for (std::size_t f = 0; f < folders.size(); ++f) {
        const ReportFolder& folder = *folders[f];
        const std::string legend = fmt::format("{}: ε = {}, r = {} (median of {})", folder.label,
                                               setting(folder, kEpsilon), setting(folder, kR), folder.traces.size());
        for (Series& s : repeats_and_median(folder, "iteration", "simple_regret", static_cast<int>(f), legend))
            figure.series.push_back(std::move(s));
    }
    figure.title = marked_title("PO-GP-UCB: simple regret over iterations, per ε and r", figure.series);
    figure.evaluation_only = figure.title.find("evaluation only") != std::string::npos;
    figure.x_label = "iteration t [count; 0: the initial design]";
    figure.y_label = "simple regret f* − max f(x_s) [objective's units, log scale]";
    figure.log_y = true;
    figure.caption =
        "Trace column 'simple_regret' of each folder (a run per ε and projection dimension r of the random-projection "
        "release). Faint: each repeat; bold: the median over repeats. Log scale: a regret of 0 is not drawn.";
    settle_log_scales(figure);
    return figure;
}

Figure regret_against_r(const std::vector<const ReportFolder*>& folders) {
    Figure figure;
    std::vector<const ReportFolder*> drawn;
    for (const ReportFolder* folder : folders) {
        if (!has_result_numbers(*folder, kR, kFinalRegret)) continue;
        drawn.push_back(folder);
        figure.series.push_back(repeat_points(*folder, kR, kFinalRegret, 0));
    }
    if (drawn.empty()) return figure;
    figure.series.front().legend = "each repeat's final regret" + evaluation_only_mark(true);
    figure.series.push_back(folder_medians(drawn, kR, kFinalRegret, 1, "median over each folder's repeats"));
    figure.title = marked_title("PO-GP-UCB: final simple regret against r", figure.series);
    figure.evaluation_only = true;
    figure.x_label = "r, dimension of the random projection [count]";
    figure.y_label = "final simple regret [objective's units, log scale]";
    figure.log_y = true;
    figure.caption =
        "One folder per r (its job's release.r). Points: each repeat's final simple regret (result.json "
        "evaluation_only.simple_regret); bold: the median over the folder's repeats. Folders with different ε share "
        "the axis: read it with the legend of the figure above.";
    settle_log_scales(figure);
    return figure;
}

}  // namespace

std::vector<Figure> po_gp_ucb_figures(const std::vector<ReportFolder>& folders) {
    std::vector<const ReportFolder*> own;
    for (const ReportFolder& folder : folders)
        if (folder.algorithm() == "po-gp-ucb") own.push_back(&folder);
    std::vector<Figure> figures;
    for (Figure figure : {regret_over_iterations(own), regret_against_r(own)})
        if (has_drawable_point(figure)) figures.push_back(std::move(figure));
    return figures;
}

}  // namespace dpbo::cli::report
