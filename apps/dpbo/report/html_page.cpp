#include "report/html_page.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "report/comparison_table.hpp"
#include "report/html_text.hpp"
#include "report/privacy_text.hpp"
#include "result_folder.hpp"

namespace dpbo::cli::report {

namespace {

constexpr const char* kStyle = R"(
body { font-family: Helvetica, Arial, sans-serif; margin: 2em auto; max-width: 1000px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.7em; margin-bottom: 0.2em; }
h2 { font-size: 1.3em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; margin-top: 2em; }
h3 { font-size: 1.1em; }
.lede { color: #555; }
dl.job { display: grid; grid-template-columns: max-content 1fr; gap: 0.15em 1em; font-size: 0.9em; }
dl.job dt { font-weight: bold; color: #555; }
dl.job dd { margin: 0; overflow-wrap: anywhere; }
.privacy { background: #f4f7fb; border-left: 4px solid #0072B2; padding: 0.3em 1em; margin: 1em 0; }
.privacy .hypothetical { border-left: 3px dashed #999; padding-left: 0.8em; }
.privacy ul { margin-top: 0; }
.warning { color: #a33; }
table.headline { border-collapse: collapse; font-size: 0.9em; margin: 1em 0; }
table.headline th, table.headline td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
table.headline td.number { text-align: right; font-variant-numeric: tabular-nums; }
table.headline tr.section th { background: #eee; }
tr.evaluation-only td, tr.evaluation-only th, tr.section.evaluation-only th { background: #fff6e5; font-style: italic; }
table.comparison { border-collapse: collapse; font-size: 0.88em; margin: 0.5em 0 1em; width: 100%; }
table.comparison th, table.comparison td { border: 1px solid #ccc; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
table.comparison tr:first-child th { background: #eef2f7; }
table.comparison ul.point { margin: 0; padding-left: 1em; }
table.comparison .dimension { font-weight: bold; }
table.comparison .ok { color: #2a7a2a; }
.noise-dominates { color: #a33; font-weight: bold; }
figure.plot { margin: 1.5em 0; }
figure.plot svg { width: 100%; height: auto; display: block; }
figure.plot figcaption { font-size: 0.9em; color: #444; margin-top: 0.3em; }
.evaluation-only-mark { color: #a35a00; font-weight: bold; }
)";

json numbers(const std::vector<double>& values) {
    json out = json::array();
    for (double v : values) out.push_back(std::isfinite(v) ? json(v) : json(nullptr));
    return out;
}

std::string format_number(double value) { return fmt::format("{:.6g}", value); }

std::string figure_html(const Figure& figure, const std::string& svg, std::size_t index) {
    return fmt::format(
        "<figure class=\"plot\" id=\"figure-{}\">\n{}\n<figcaption><strong>{}</strong> {}</figcaption>\n"
        "<script type=\"application/json\" class=\"figure-data\">{}</script>\n</figure>\n",
        index, svg, escape_html(figure.title), escape_html(figure.caption), script_json(figure_data(figure)));
}

}  // namespace

json figure_data(const Figure& figure) {
    json series = json::array();
    for (const Series& s : figure.series) {
        series.push_back({{"folder", s.folder},
                          {"kind", s.kind},
                          {"repeat", s.repeat},
                          {"x_column", s.x_column},
                          {"y_column", s.y_column},
                          {"evaluation_only", s.evaluation_only},
                          {"legend", s.legend},
                          {"x", numbers(s.x)},
                          {"y", numbers(s.y)}});
        if (!s.folders.empty()) series.back()["folders"] = s.folders;
    }
    return {{"title", figure.title},      {"x_label", figure.x_label}, {"y_label", figure.y_label},
            {"log_x", figure.log_x},      {"log_y", figure.log_y},     {"evaluation_only", figure.evaluation_only},
            {"series", std::move(series)}};
}

std::string headline_table_html(const std::vector<ReportFolder>& folders) {
    std::string out = "<table class=\"headline\">\n<tr><th></th>";
    for (const ReportFolder& folder : folders) out += "<th>" + escape_html(folder.label) + "</th>";
    out += "</tr>\n";
    const auto text_row = [&](const std::string& name, auto&& cell) {
        out += "<tr><th>" + escape_html(name) + "</th>";
        for (const ReportFolder& folder : folders) out += "<td>" + escape_html(cell(folder)) + "</td>";
        out += "</tr>\n";
    };
    text_row("algorithm", [](const ReportFolder& f) { return f.algorithm(); });
    text_row("objective",
             [](const ReportFolder& f) { return f.first()["job"]["objective"]["name"].get<std::string>(); });
    text_row("repeats", [](const ReportFolder& f) { return fmt::format("{}", f.read.results.size()); });
    text_row("privacy", [](const ReportFolder& f) {
        return fmt::format("{}", fmt::join(privacy_headlines(f.read.results), " | "));
    });
    for (const char* section : {"released", "evaluation_only"}) {
        const bool evaluation_only = std::string(section) == "evaluation_only";
        std::vector<std::map<std::string, std::vector<double>>> values;
        std::set<std::string> names;
        for (const ReportFolder& folder : folders) {
            values.push_back(scalars(folder.read.results, section));
            for (const auto& [name, list] : values.back()) names.insert(name);
        }
        if (names.empty()) continue;
        const std::string row_class = evaluation_only ? " class=\"evaluation-only\"" : "";
        out += fmt::format(
            "<tr class=\"section{}\"><th colspan=\"{}\">{}</th></tr>\n", evaluation_only ? " evaluation-only" : "",
            folders.size() + 1,
            evaluation_only ? "evaluation only (not released): median over repeats" : "released: median over repeats");
        for (const std::string& name : names) {
            out += fmt::format("<tr{}><th>{}{}</th>", row_class, escape_html(name),
                               evaluation_only ? " <small>(evaluation only)</small>" : "");
            for (const auto& folder_values : values) {
                const auto found = folder_values.find(name);
                if (found == folder_values.end()) {
                    out += "<td class=\"number\">—</td>";
                    continue;
                }
                const Spread s = spread(found->second);
                out += fmt::format(
                    "<td class=\"number\" data-median=\"{}\" title=\"range [{}, {}], n = {}\">{} "
                    "<small>(n = {})</small></td>",
                    json(s.median).dump(), format_number(s.min), format_number(s.max), s.count, format_number(s.median),
                    s.count);
            }
            out += "</tr>\n";
        }
    }
    return out + "</table>\n";
}

std::string page_html(const std::vector<ReportFolder>& folders, const std::vector<FigureSection>& sections) {
    std::vector<std::string> labels;
    std::size_t studies = 0;
    for (const ReportFolder& folder : folders) {
        labels.push_back(folder.label);
        if (folder.study) ++studies;
    }
    std::string out = fmt::format(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dpbo report: {}</title>\n"
        "<style>{}</style>\n</head>\n<body>\n<h1>dpbo report</h1>\n<p class=\"lede\">{}: {}. "
        "Quantities marked <span class=\"evaluation-only-mark\">evaluation only (not released)</span> were "
        "computed from the data without privatisation to judge the run; they are not part of what the run "
        "released.</p>\n",
        escape_html(fmt::format("{}", fmt::join(labels, ", "))), kStyle,
        studies == 0 ? fmt::format("{} run folder(s)", folders.size())
                     : fmt::format("{} run folder(s) and {} study file(s)", folders.size() - studies, studies),
        escape_html(fmt::format("{}", fmt::join(labels, ", "))));
    out += "<section id=\"compare\">\n<h2>Comparison</h2>\n" + comparison_table_html(folders) +
           "<p class=\"lede\"><small>Best hyperparameters and values as each run released them (a folder of several "
           "repeats: its first). ± is the standard deviation of the noise the value's own release added, from the "
           "run's release record. The noise check warns where that noise is not small against the differences "
           "compared (docs/reports.md states the rule).</small></p>\n</section>\n";
    for (const ReportFolder& folder : folders) {
        out += fmt::format("<section class=\"folder\">\n<h2>{}: {} on {}</h2>\n", escape_html(folder.label),
                           escape_html(folder.algorithm()),
                           escape_html(folder.first()["job"]["objective"]["name"].get<std::string>()));
        out += "<h3>Privacy</h3>\n" + privacy_html(folder) + "\n<h3>Job</h3>\n" + job_html(folder) + "\n</section>\n";
    }
    out += "<section>\n<h2>Headline figures</h2>\n" + headline_table_html(folders) + "</section>\n";
    std::size_t index = 0;
    for (const FigureSection& section : sections) {
        if (section.figures.empty()) continue;
        out += "<section>\n<h2>" + escape_html(section.heading) + "</h2>\n";
        for (std::size_t f = 0; f < section.figures.size(); ++f)
            out += figure_html(section.figures[f], section.svgs[f], index++);
        out += "</section>\n";
    }
    return out + "</body>\n</html>\n";
}

}  // namespace dpbo::cli::report
