#include "report/trace_series.hpp"

#include <algorithm>

#include "report/repeat_statistics.hpp"

namespace dpbo::cli::report {

Series repeat_series(const ReportFolder& folder, std::size_t index, const std::string& x_column,
                     const std::string& y_column, int colour, SeriesStyle style) {
    const TraceTable& trace = *folder.traces[index];
    Series s;
    s.folder = folder.label;
    s.kind = "repeat";
    s.repeat = folder.repeat_number(index);
    s.x_column = x_column;
    s.y_column = y_column;
    s.evaluation_only = folder.is_evaluation_only(y_column) || folder.is_evaluation_only(x_column);
    s.colour = colour;
    s.style = style;
    s.x = *trace.column(x_column);
    s.y = *trace.column(y_column);
    return s;
}

std::vector<Series> repeats_and_median(const ReportFolder& folder, const std::string& x_column,
                                       const std::string& y_column, int colour, const std::string& legend) {
    if (!folder.has_column(x_column) || !folder.has_column(y_column)) return {};
    const bool evaluation_only = folder.is_evaluation_only(y_column) || folder.is_evaluation_only(x_column);
    std::vector<Series> series;
    std::vector<const std::vector<double>*> xs, ys;
    for (std::size_t i = 0; i < folder.traces.size(); ++i) {
        series.push_back(repeat_series(folder, i, x_column, y_column, colour, SeriesStyle::faint));
        xs.push_back(folder.traces[i]->column(x_column));
        ys.push_back(folder.traces[i]->column(y_column));
    }
    Series median;
    median.legend = legend + evaluation_only_mark(evaluation_only);
    median.folder = folder.label;
    median.kind = "median";
    median.x_column = x_column;
    median.y_column = y_column;
    median.evaluation_only = evaluation_only;
    median.colour = colour;
    median.style = SeriesStyle::bold;
    median.x = median_by_row(xs);
    median.y = median_by_row(ys);
    series.push_back(std::move(median));
    return series;
}

std::string evaluation_only_mark(bool evaluation_only) {
    return evaluation_only ? " — evaluation only (not released)" : "";
}

std::string marked_title(const std::string& title, const std::vector<Series>& series) {
    const auto marked = std::count_if(series.begin(), series.end(), [](const Series& s) { return s.evaluation_only; });
    if (marked == 0) return title;
    if (static_cast<std::size_t>(marked) == series.size()) return title + " — evaluation only (not released)";
    return title + " — partly evaluation only (not released)";
}

}  // namespace dpbo::cli::report
