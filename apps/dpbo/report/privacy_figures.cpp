#include "report/privacy_figures.hpp"

#include <set>

#include <fmt/format.h>

namespace dpbo::cli::report {

namespace {

// Of one repeat's record, the series of `unit` ("epsilon" or "mu"); empty when it has no such points.
Series spent_series(const ReportFolder& folder, std::size_t index, const std::string& unit, int colour) {
    Series s;
    const json& result = folder.read.results[index];
    if (!result.contains("privacy_over_run") || !result["privacy_over_run"].is_object()) return s;
    for (const json& point : result["privacy_over_run"]["points"]) {
        if (!point.contains(unit)) continue;
        s.x.push_back(point["release"].get<double>());
        s.y.push_back(point[unit].get<double>());
    }
    s.folder = folder.label;
    s.kind = "privacy over run";
    s.repeat = folder.repeat_number(index);
    s.x_column = "/privacy_over_run/points/release";
    s.y_column = "/privacy_over_run/points/" + unit;
    s.colour = colour;
    s.style = folder.read.results.size() == 1 ? SeriesStyle::marker : SeriesStyle::faint;
    return s;
}

}  // namespace

std::vector<Figure> privacy_figures(const std::vector<ReportFolder>& folders) {
    std::vector<Figure> figures;
    for (const std::string unit : {"epsilon", "mu"}) {
        Figure figure;
        std::set<double> deltas;
        for (std::size_t f = 0; f < folders.size(); ++f) {
            const ReportFolder& folder = folders[f];
            bool first = true;
            for (std::size_t i = 0; i < folder.read.results.size(); ++i) {
                Series s = spent_series(folder, i, unit, static_cast<int>(f));
                if (s.x.empty()) continue;
                const json& over = folder.read.results[i]["privacy_over_run"];
                if (unit == "epsilon") deltas.insert(over["delta"].get<double>());
                if (first)
                    s.legend = unit == "epsilon" && over["delta"].get<double>() > 0.0
                                   ? fmt::format("{} ({}), δ = {:g}", folder.label, folder.algorithm(),
                                                 over["delta"].get<double>())
                                   : fmt::format("{} ({})", folder.label, folder.algorithm());
                first = false;
                figure.series.push_back(std::move(s));
            }
        }
        if (figure.series.empty()) continue;
        figure.title = unit == "epsilon" ? "Privacy spent over the run: ε after each release"
                                         : "Privacy spent over the run: μ after each release";
        figure.x_label = "private releases made [count]";
        if (unit == "mu")
            figure.y_label = "μ spent [μ-GDP]";
        else if (deltas.size() == 1 && *deltas.begin() == 0.0)
            figure.y_label = "ε spent [ε-DP]";
        else if (deltas.size() == 1)
            figure.y_label = fmt::format("ε spent [(ε, δ)-DP at δ = {:g}]", *deltas.begin());
        else
            figure.y_label = "ε spent [(ε, δ)-DP at each run's final δ; ε-DP where δ = 0]";
        figure.caption =
            "After release k, the run's own accountant composing its first k releases, as recorded in the ledger's "
            "log (result.json privacy_over_run), at the δ of the run's final statement: the last point is the "
            "statement's ε. Up to 64 points per repeat, evenly spaced. Seeded runs are not private as run; their "
            "curve is what the same run with secret noise would spend. Studies record no per-release composition "
            "and are not drawn.";
        figures.push_back(std::move(figure));
    }
    return figures;
}

}  // namespace dpbo::cli::report
