#include "report/comparison_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html_text.hpp"

namespace dpbo::cli::report {

namespace {

std::string number(double value) { return fmt::format("{:.4g}", value); }

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

const json& section(const json& result, const char* name) {
    static const json empty = json::object();
    return result.contains(name) && result[name].is_object() ? result[name] : empty;
}

// Whether the run as it was made released its values exactly (no private mechanism, nor one it
// would have had without --seed).
bool not_private_at_all(const json& result) {
    const json& privacy = section(result, "privacy");
    return privacy.value("notion", std::string()) == "not private" && !privacy.contains("hypothetical");
}

// The released point: a released list of one number per dimension, those whose name says it is a
// point first (best_point, lambda_tilde, theta).
std::optional<std::pair<std::string, std::vector<double>>> released_point(const ReportFolder& folder) {
    const std::size_t dim = folder.dimension_names().size();
    if (dim == 0) return std::nullopt;
    std::optional<std::pair<std::string, std::vector<double>>> found;
    for (const auto& [name, entry] : section(folder.first(), "released").items()) {
        if (!entry.is_object() || !entry.contains("value")) continue;
        const json& value = entry["value"];
        std::vector<double> point;
        if (value.is_number() && dim == 1) point = {value.get<double>()};
        if (value.is_array() && value.size() == dim &&
            std::all_of(value.begin(), value.end(), [](const json& v) { return v.is_number(); }))
            for (const json& v : value) point.push_back(v.get<double>());
        if (point.size() != dim) continue;
        const bool named_point = contains(name, "point") || contains(name, "lambda") || contains(name, "theta");
        if (named_point) return std::pair{name, point};
        if (!found && dim > 1) found = std::pair{name, point};
    }
    return found;
}

std::string point_html(const ReportFolder& folder) {
    if (folder.study && !folder.first()["study"].value("finished", false)) return "— <small>(not finished)</small>";
    const auto point = released_point(folder);
    if (!point) return "—";
    const std::vector<std::string> names = folder.dimension_names();
    std::string out = "<ul class=\"point\">";
    for (std::size_t i = 0; i < names.size(); ++i)
        out += fmt::format("<li><span class=\"dimension\">{}</span> = {}</li>",
                           escape_html(folder.column_label(fmt::format("x[{}]", i))), number(point->second[i]));
    return out + fmt::format("</ul><small>released as <code>{}</code></small>", escape_html(point->first));
}

// The evaluation-only figure of the released point's quality, when the run computed one.
std::string evaluation_only_html(const ReportFolder& folder) {
    for (const auto& [name, entry] : section(folder.first(), "evaluation_only").items())
        if ((contains(name, "true_value") || name.rfind("f_", 0) == 0) && entry.is_object() &&
            entry.contains("value") && entry["value"].is_number())
            return fmt::format(
                "<div class=\"evaluation-only\"><span class=\"evaluation-only-mark\">evaluation only (not "
                "released)</span>: {} = {}</div>",
                escape_html(name), number(entry["value"].get<double>()));
    return {};
}

std::string objective_of(const ReportFolder& folder) {
    return folder.first()["job"]["objective"]["name"].get<std::string>();
}

// Values are comparable across rows only for one objective with the same parameters (a ramp gain
// and an accuracy are different numbers of the same learner).
bool same_objective(const ReportFolder& a, const ReportFolder& b) {
    return a.first()["job"]["objective"] == b.first()["job"]["objective"];
}

// The privacy spent in one short phrase, with the statement's headline kept for the tooltip.
std::string spent_html(const ReportFolder& folder) {
    const json& result = folder.first();
    const json& privacy = section(result, "privacy");
    const json& claim = privacy.contains("hypothetical") ? privacy["hypothetical"] : privacy;
    std::string amount;
    if (result.contains("privacy_over_run") && result["privacy_over_run"].is_object()) {
        const json& over = result["privacy_over_run"];
        const json& last = over["points"].empty() ? json() : over["points"].back();
        if (last.contains("epsilon"))
            amount = over["delta"].get<double>() > 0.0
                         ? fmt::format("ε = {} at δ = {:g}", number(last["epsilon"].get<double>()),
                                       over["delta"].get<double>())
                         : fmt::format("ε = {} (pure ε-DP)", number(last["epsilon"].get<double>()));
        else if (last.contains("mu"))
            amount = fmt::format("μ = {}", number(last["mu"].get<double>()));
        amount += fmt::format(" <small>({} release(s))</small>", over["releases"].dump());
    } else if (claim.contains("epsilon") && claim["epsilon"].is_number()) {
        amount = fmt::format("ε = {}", number(claim["epsilon"].get<double>()));
        if (claim.contains("delta") && claim["delta"].is_number())
            amount += fmt::format(" at δ = {:g}", claim["delta"].get<double>());
    } else if (claim.contains("mu") && claim["mu"].is_number()) {
        amount = fmt::format("μ = {}", number(claim["mu"].get<double>()));
    }
    const std::string headline = privacy.value("headline", std::string());
    // Not private, or nothing released yet (a study): the statement's own words.
    if (amount.empty()) amount = escape_html(headline);
    if (privacy.contains("hypothetical"))
        amount += " <small class=\"warning\">seeded: not private as run (this, with secret noise)</small>";
    return fmt::format("<span title=\"{}\">{}</span>", escape_html(headline), amount);
}

}  // namespace

std::optional<ReleasedValueWithNoise> released_value(const ReportFolder& folder) {
    const json& result = folder.first();
    const json& released = section(result, "released");
    const json noise = result.contains("privacy_over_run") && result["privacy_over_run"].is_object()
                           ? result["privacy_over_run"].value("noise", json::array())
                           : json::array();
    std::optional<ReleasedValueWithNoise> named_value;
    for (const auto& [name, entry] : released.items()) {
        if (!entry.is_object() || !entry.contains("value") || !entry["value"].is_number()) continue;
        const double value = entry["value"].get<double>();
        // The release record that produced exactly this number says how much noise it carries.
        for (const json& record : noise) {
            if (!record.contains("released_as") || !record["released_as"].is_array()) continue;
            const json& names = record["released_as"];
            if (std::find(names.begin(), names.end(), json(name)) == names.end()) continue;
            // The other numbers of a released list made by the same release: the candidates.
            std::vector<double> siblings;
            for (const json& other : names) {
                const json& list = released.contains(other.get<std::string>())
                                       ? released[other.get<std::string>()].value("value", json())
                                       : json();
                if (!list.is_array() || list.size() < 2 || !siblings.empty()) continue;
                if (!std::all_of(list.begin(), list.end(), [](const json& v) { return v.is_number(); })) continue;
                siblings = list.get<std::vector<double>>();
                const auto at = std::find(siblings.begin(), siblings.end(), value);
                if (at == siblings.end()) {
                    siblings.clear();
                    continue;
                }
                siblings.erase(at);
            }
            const std::string law = record["distribution"].get<std::string>();
            const std::string source =
                fmt::format("release {}: {}", record["release"].dump(), record.value("what", std::string()));
            return ReleasedValueWithNoise{name, value, record["standard_deviation"].get<double>(),
                                          law == "laplace" ? fmt::format("Laplace noise, scale {}, {}",
                                                                         number(record["scale"].get<double>()), source)
                                                           : fmt::format("Gaussian noise, {}", source),
                                          std::move(siblings)};
        }
        if (!named_value && contains(name, "value")) named_value = ReleasedValueWithNoise{name, value, {}, {}};
    }
    if (!named_value) return std::nullopt;
    if (not_private_at_all(result)) {
        named_value->noise_sd = 0.0;
        named_value->noise_text = "exact: not privatised (the run is not private)";
    } else {
        named_value->noise_text = "noise not recorded for this value";
    }
    return named_value;
}

std::vector<std::vector<std::string>> noise_warnings(const std::vector<ReportFolder>& folders) {
    std::vector<std::optional<ReleasedValueWithNoise>> values;
    for (const ReportFolder& folder : folders) values.push_back(released_value(folder));
    std::vector<std::vector<std::string>> warnings(folders.size());
    for (std::size_t i = 0; i < folders.size(); ++i) {
        if (!values[i] || !values[i]->noise_sd) continue;
        const double si = *values[i]->noise_sd;
        for (std::size_t j = 0; j < folders.size(); ++j) {
            if (j == i || !values[j] || !values[j]->noise_sd || !same_objective(folders[i], folders[j])) continue;
            const double sj = *values[j]->noise_sd;
            const double gap = std::abs(values[i]->value - values[j]->value);
            const double spread = 2.0 * std::sqrt(si * si + sj * sj);
            if (spread > 0.0 && gap < spread)
                warnings[i].push_back(fmt::format(
                    "noise dominates the difference to {}: the released values differ by {}, under 2·√({}² + {}²) "
                    "= {}, twice the s.d. of the difference",
                    folders[j].label, number(gap), number(si), number(sj), number(spread)));
        }
        if (si > 0.0 && !values[i]->siblings.empty()) {
            double nearest = INFINITY;
            for (double other : values[i]->siblings) nearest = std::min(nearest, std::abs(values[i]->value - other));
            if (nearest < 2.0 * std::sqrt(2.0) * si)
                warnings[i].push_back(fmt::format(
                    "noise dominates the choice among the {} noisy candidates: the next is {} away, under 2·√2·s.d. = "
                    "{}; the best of noisy values is also biased upward",
                    values[i]->siblings.size() + 1, number(nearest), number(2.0 * std::sqrt(2.0) * si)));
        }
    }
    return warnings;
}

std::string comparison_table_html(const std::vector<ReportFolder>& folders) {
    const std::vector<std::vector<std::string>> warnings = noise_warnings(folders);
    std::string out =
        "<table class=\"comparison\" id=\"comparison\">\n<tr><th>run or study</th><th>algorithm on objective</th>"
        "<th>best hyperparameters (released)</th><th>released value ± noise (s.d.)</th><th>noise check</th>"
        "<th>privacy spent</th><th>evaluations</th></tr>\n";
    for (std::size_t f = 0; f < folders.size(); ++f) {
        const ReportFolder& folder = folders[f];
        const std::size_t repeats = folder.read.results.size();
        std::string value_cell = "—";
        if (const auto value = released_value(folder)) {
            value_cell = fmt::format("<code>{}</code> = {}", escape_html(value->name), number(value->value));
            if (value->noise_sd && *value->noise_sd > 0.0) value_cell += fmt::format(" ± {}", number(*value->noise_sd));
            value_cell += fmt::format("<br><small>{}</small>", escape_html(value->noise_text));
        }
        value_cell += evaluation_only_html(folder);
        std::string check = released_value(folder) ? "<span class=\"ok\">no warning</span>" : "—";
        if (!warnings[f].empty()) {
            check.clear();
            for (const std::string& warning : warnings[f])
                check += "<div class=\"warning noise-dominates\">⚠ " + escape_html(warning) + "</div>";
        }
        out += fmt::format(
            "<tr data-label=\"{0}\"><th>{0}<br><small>{1}{2}</small></th><td>{3} on {4}</td><td>{5}</td><td>{6}</td>"
            "<td>{7}</td><td>{8}</td><td class=\"number\">{9}</td></tr>\n",
            escape_html(folder.label), folder.study ? "study file" : "run folder",
            repeats > 1 ? fmt::format(", repeat 1 of {}", repeats) : "", escape_html(folder.algorithm()),
            escape_html(objective_of(folder)), point_html(folder), value_cell, check, spent_html(folder),
            folder.first().value("evaluations", json()).dump());
    }
    return out + "</table>\n";
}

}  // namespace dpbo::cli::report
