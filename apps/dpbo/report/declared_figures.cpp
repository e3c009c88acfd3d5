#include "report/declared_figures.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

#include "report/figure_text.hpp"
#include "report/result_points.hpp"
#include "report/trace_series.hpp"

namespace dpbo::cli::report {

namespace {

// A folder on a figure, with the spec its own result declares (its series, its legends).
struct Member {
    const ReportFolder* folder;
    const FigureSpec* spec;
};

// A released front (a k×2 matrix at the pointer), sorted by its first column so that a staircase
// through it is the front's attainment boundary; nothing when absent or not k×2 numbers.
std::optional<std::pair<std::vector<double>, std::vector<double>>> sorted_front(const json& result,
                                                                                const std::string& pointer) {
    const json::json_pointer at(pointer);
    if (!result.contains(at) || !result.at(at).is_array()) return std::nullopt;
    std::vector<std::pair<double, double>> points;
    for (const json& p : result.at(at)) {
        if (!p.is_array() || p.size() != 2 || !p[0].is_number() || !p[1].is_number()) return std::nullopt;
        points.emplace_back(p[0].get<double>(), p[1].get<double>());
    }
    std::sort(points.begin(), points.end());
    std::pair<std::vector<double>, std::vector<double>> xy;
    for (const auto& [x, y] : points) {
        xy.first.push_back(x);
        xy.second.push_back(y);
    }
    return xy;
}

void add_fronts(Figure& figure, const Member& member, const FigureSeries& spec, int colour, std::size_t folders) {
    const ReportFolder& folder = *member.folder;
    std::vector<Series> fronts;
    for (std::size_t i = 0; i < folder.read.results.size(); ++i) {
        const auto xy = sorted_front(folder.read.results[i], spec.y);
        if (!xy) return;  // every repeat releases its front, or the folder is not drawn
        Series s;
        s.folder = folder.label;
        s.kind = "front";
        s.repeat = folder.repeat_number(i);
        s.x_column = s.y_column = spec.y;
        s.evaluation_only = spec.evaluation_only || spec.y.rfind("/evaluation_only/", 0) == 0;
        s.colour = colour;
        s.style = SeriesStyle::front;
        std::tie(s.x, s.y) = *xy;
        fronts.push_back(std::move(s));
    }
    if (!fronts.empty() && !spec.legend.empty())
        fronts.front().legend =
            fill_placeholders(spec.legend, folder, folders) + evaluation_only_mark(fronts.front().evaluation_only);
    for (Series& s : fronts) figure.series.push_back(std::move(s));
}

void add_trace(Figure& figure, const Member& member, const FigureSeries& spec, int colour, std::size_t folders) {
    std::vector<Series> series = repeats_and_median(*member.folder, spec.x, spec.y, colour,
                                                    fill_placeholders(spec.legend, *member.folder, folders));
    for (Series& s : series) {
        if (spec.evaluation_only) s.evaluation_only = true;
        if (s.kind == "median")
            s.legend = spec.legend.empty() ? std::string()
                                           : fill_placeholders(spec.legend, *member.folder, folders) +
                                                 evaluation_only_mark(s.evaluation_only);
        figure.series.push_back(std::move(s));
    }
}

// Series `index` of source result over all members: each folder's repeats as points in one colour,
// the per-folder medians joined in the next.
void add_result_points(Figure& figure, const std::vector<Member>& members, std::size_t index) {
    const FigureSeries& first = members.front().spec->series[index];
    const int colour = 2 * static_cast<int>(index);
    std::vector<const ReportFolder*> drawn;
    for (const Member& member : members) {
        const FigureSeries& spec = member.spec->series[index];
        if (!has_result_numbers(*member.folder, spec.x, spec.y)) continue;
        Series points = repeat_points(*member.folder, spec.x, spec.y, colour);
        if (spec.evaluation_only) points.evaluation_only = true;
        if (drawn.empty() && !first.repeat_legend.empty())
            points.legend = fill_placeholders(first.repeat_legend, *member.folder, members.size()) +
                            evaluation_only_mark(points.evaluation_only);
        drawn.push_back(member.folder);
        figure.series.push_back(std::move(points));
    }
    if (drawn.empty()) return;
    Series medians = folder_medians(drawn, first.x, first.y, colour + 1,
                                    fill_placeholders(first.legend, *drawn.front(), drawn.size()));
    if (first.evaluation_only && !medians.evaluation_only) {
        medians.evaluation_only = true;
        medians.legend += evaluation_only_mark(true);
    }
    if (first.legend.empty()) medians.legend.clear();
    figure.series.push_back(std::move(medians));
}

// The figure of one spec over its members (one folder for scope "folder"): texts from the first
// member's spec and folder, each member's series from its own spec. Series of source result are
// matched across members by position (the members declare the same figure).
Figure draw(const std::vector<Member>& members) {
    const FigureSpec& spec = *members.front().spec;
    const ReportFolder& first = *members.front().folder;
    const std::size_t folders = members.size();
    Figure figure;
    for (std::size_t m = 0; m < members.size(); ++m) {
        const FigureSpec& own = *members[m].spec;
        for (std::size_t s = 0; s < own.series.size(); ++s) {
            const int colour = static_cast<int>(m * own.series.size() + s);
            if (own.series[s].source == FigureSource::trace)
                add_trace(figure, members[m], own.series[s], colour, folders);
            if (own.series[s].source == FigureSource::front)
                add_fronts(figure, members[m], own.series[s], colour, folders);
        }
    }
    for (std::size_t s = 0; s < spec.series.size(); ++s)
        if (spec.series[s].source == FigureSource::result) add_result_points(figure, members, s);
    figure.log_x = spec.x.log;
    figure.log_y = spec.y.log;
    settle_log_scales(figure);
    figure.title = marked_title(fill_placeholders(spec.title, first, folders), figure.series);
    const bool marked = figure.title.find("evaluation only (not released)") != std::string::npos;
    if (spec.evaluation_only && !marked) figure.title += evaluation_only_mark(true);
    figure.evaluation_only = spec.evaluation_only || marked;
    figure.caption = fill_placeholders(spec.caption, first, folders);
    figure.x_label = axis_label(fill_placeholders(spec.x.label, first, folders),
                                fill_placeholders(spec.x.unit, first, folders), figure.log_x);
    figure.y_label = axis_label(fill_placeholders(spec.y.label, first, folders),
                                fill_placeholders(spec.y.unit, first, folders), figure.log_y);
    return figure;
}

// Only members whose series agree in number and sources can share a figure; the others are drawn
// on a figure of their own under the same title.
bool same_shape(const FigureSpec& a, const FigureSpec& b) {
    if (a.series.size() != b.series.size()) return false;
    for (std::size_t s = 0; s < a.series.size(); ++s)
        if (a.series[s].source != b.series[s].source) return false;
    return true;
}

}  // namespace

DeclaredFigures declared_figures(const std::vector<ReportFolder>& folders) {
    DeclaredFigures out;
    // Across folders: grouped by id and the title as filled in for each folder, so that a figure
    // whose title names what it compares (the outputs of a front) splits where that differs.
    std::vector<std::pair<std::string, std::vector<Member>>> groups;
    for (const ReportFolder& folder : folders) {
        std::vector<Figure> own;
        for (const FigureSpec& spec : folder.figures) {
            if (spec.scope == FigureScope::folder) {
                Figure figure = draw({{&folder, &spec}});
                if (has_drawable_point(figure)) own.push_back(std::move(figure));
                continue;
            }
            const std::string key = spec.id + '\n' + fill_placeholders(spec.title, folder, 1);
            auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
                return g.first == key && same_shape(*g.second.front().spec, spec);
            });
            if (group == groups.end()) group = groups.insert(groups.end(), {key, {}});
            group->second.push_back({&folder, &spec});
        }
        out.per_folder.push_back(std::move(own));
    }
    for (const auto& [key, members] : groups) {
        Figure figure = draw(members);
        if (has_drawable_point(figure)) out.across_folders.push_back(std::move(figure));
    }
    return out;
}

}  // namespace dpbo::cli::report
