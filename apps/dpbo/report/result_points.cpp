#include "report/result_points.hpp"

#include <algorithm>

#include "report/repeat_statistics.hpp"
#include "report/trace_series.hpp"

namespace dpbo::cli::report {

std::optional<double> result_number(const ReportFolder& folder, std::size_t index, const std::string& pointer) {
    const json& result = folder.read.results.at(index);
    const json::json_pointer at(pointer);
    if (!result.contains(at) || !result.at(at).is_number()) return std::nullopt;
    return result.at(at).get<double>();
}

bool has_result_numbers(const ReportFolder& folder, const std::string& x_pointer, const std::string& y_pointer) {
    if (folder.read.results.empty()) return false;
    for (std::size_t i = 0; i < folder.read.results.size(); ++i)
        if (!result_number(folder, i, x_pointer) || !result_number(folder, i, y_pointer)) return false;
    return true;
}

namespace {

bool pointer_is_evaluation_only(const std::string& pointer) { return pointer.rfind("/evaluation_only/", 0) == 0; }

}  // namespace

Series repeat_points(const ReportFolder& folder, const std::string& x_pointer, const std::string& y_pointer,
                     int colour) {
    Series s;
    s.folder = folder.label;
    s.kind = "repeats";
    s.x_column = x_pointer;
    s.y_column = y_pointer;
    s.evaluation_only = pointer_is_evaluation_only(x_pointer) || pointer_is_evaluation_only(y_pointer);
    s.colour = colour;
    s.style = SeriesStyle::points;
    for (std::size_t i = 0; i < folder.read.results.size(); ++i) {
        s.x.push_back(*result_number(folder, i, x_pointer));
        s.y.push_back(*result_number(folder, i, y_pointer));
    }
    return s;
}

Series folder_medians(const std::vector<const ReportFolder*>& folders, const std::string& x_pointer,
                      const std::string& y_pointer, int colour, const std::string& legend) {
    struct Point {
        std::string folder;
        double x, y;
    };
    std::vector<Point> points;
    for (const ReportFolder* folder : folders) {
        std::vector<double> xs, ys;
        for (std::size_t i = 0; i < folder->read.results.size(); ++i) {
            xs.push_back(*result_number(*folder, i, x_pointer));
            ys.push_back(*result_number(*folder, i, y_pointer));
        }
        points.push_back({folder->label, median_of(xs), median_of(ys)});
    }
    std::stable_sort(points.begin(), points.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    Series s;
    s.kind = "folder medians";
    s.x_column = x_pointer;
    s.y_column = y_pointer;
    s.evaluation_only = pointer_is_evaluation_only(x_pointer) || pointer_is_evaluation_only(y_pointer);
    s.legend = legend + evaluation_only_mark(s.evaluation_only);
    s.colour = colour;
    s.style = SeriesStyle::marker;
    for (const Point& p : points) {
        s.folders.push_back(p.folder);
        s.x.push_back(p.x);
        s.y.push_back(p.y);
    }
    return s;
}

}  // namespace dpbo::cli::report
