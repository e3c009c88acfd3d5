#include "report/dp_ucb_figures.hpp"

#include <fmt/format.h>

#include "report/result_points.hpp"
#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// ε of each release is the algorithm's parameter (the selection and mechanism roles share it); the
// regret of λ̃, f* − f(λ̃), is computed from the objective's optimum: evaluation only.
constexpr const char* kEpsilon = "/job/algorithm/parameters/epsilon";
constexpr const char* kRegret = "/evaluation_only/regret_lambda_tilde/value";

}  // namespace

std::vector<Figure> dp_ucb_figures(const std::vector<ReportFolder>& folders) {
    std::vector<const ReportFolder*> drawn;
    Figure figure;
    for (const ReportFolder& folder : folders) {
        if (folder.algorithm() != "dp-ucb" || !has_result_numbers(folder, kEpsilon, kRegret)) continue;
        drawn.push_back(&folder);
        figure.series.push_back(repeat_points(folder, kEpsilon, kRegret, 0));
    }
    if (drawn.empty()) return {};
    figure.series.push_back(folder_medians(drawn, kEpsilon, kRegret, 1,
                                           fmt::format("median over each folder's repeats ({} folder{})", drawn.size(),
                                                       drawn.size() == 1 ? "" : "s")));
    figure.series.front().legend = "each repeat's released point" + evaluation_only_mark(true);
    figure.title = marked_title("DP-UCB (Kusner et al.): regret of the released point against ε", figure.series);
    figure.evaluation_only = true;
    // Kusner et al. sweep ε over decades: a log axis spaces them evenly.
    figure.log_x = true;
    figure.x_label = "ε of each release [privacy loss, log scale]";
    figure.y_label = "regret f* − f(λ̃) of the released λ̃ [objective's units, log scale]";
    figure.log_y = true;
    figure.caption =
        "One folder per ε (its job's algorithm.epsilon). Points: each repeat's regret of the released "
        "hyperparameters λ̃ (result.json evaluation_only.regret_lambda_tilde: it needs the objective's optimum, so it "
        "is evaluation only); bold: the median over the folder's repeats. Log scale: a regret of 0 is not drawn.";
    settle_log_scales(figure);
    if (!has_drawable_point(figure)) return {};
    return {std::move(figure)};
}

}  // namespace dpbo::cli::report
