#include "report/path_figures.hpp"

#include <fmt/format.h>

#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// Beyond this many repeats, distinct colours and markers stop telling paths apart: they are drawn
// faint in one colour instead.
constexpr std::size_t kDistinctPaths = 7;

}  // namespace

std::vector<Figure> path_figures(const ReportFolder& folder) {
    if (!folder.has_column("theta[0]") || !folder.has_column("theta[1]") || folder.has_column("theta[2]")) return {};
    Figure figure;
    const bool distinct = folder.traces.size() <= kDistinctPaths;
    const bool evaluation_only = folder.is_evaluation_only("theta[0]") || folder.is_evaluation_only("theta[1]");
    for (std::size_t i = 0; i < folder.traces.size(); ++i) {
        Series s;
        s.folder = folder.label;
        s.kind = "repeat";
        s.repeat = folder.repeat_number(i);
        s.x_column = "theta[0]";
        s.y_column = "theta[1]";
        s.evaluation_only = evaluation_only;
        s.colour = distinct ? static_cast<int>(i) : 0;
        s.style = distinct ? SeriesStyle::path : SeriesStyle::faint;
        if (distinct) s.legend = fmt::format("repeat {}{}", s.repeat, evaluation_only_mark(evaluation_only));
        s.x = *folder.traces[i]->column("theta[0]");
        s.y = *folder.traces[i]->column("theta[1]");
        figure.series.push_back(std::move(s));
    }
    figure.title = marked_title(fmt::format("{} on {}: path of the iterates θ_t", folder.algorithm(), folder.label),
                                figure.series);
    figure.evaluation_only = evaluation_only;
    figure.x_label = folder.column_label("theta[0]");
    figure.y_label = folder.column_label("theta[1]");
    figure.caption = distinct ? "Each repeat's iterates θ_1 … θ_T in the order taken, the first one circled."
                              : "Each repeat's iterates θ_1 … θ_T in the order taken (one faint line per repeat).";
    if (!has_drawable_point(figure)) return {};
    return {std::move(figure)};
}

}  // namespace dpbo::cli::report
