#include "report/privacy_text.hpp"

#include <fmt/format.h>

#include "report/html_text.hpp"
#include "result_folder.hpp"

namespace dpbo::cli::report {

namespace {

std::string text_of(const json& statement, const char* key) {
    return statement.contains(key) && statement[key].is_string() ? statement[key].get<std::string>() : std::string();
}

std::string list_html(const json& statement, const char* key) {
    if (!statement.contains(key) || !statement[key].is_array() || statement[key].empty()) return {};
    std::string out = "<ul>";
    for (const json& item : statement[key])
        if (item.is_string()) out += "<li>" + escape_html(item.get<std::string>()) + "</li>";
    return out + "</ul>";
}

std::string equivalents(const json& statement) {
    if (!statement.contains("equivalent_epsilon_delta") || !statement["equivalent_epsilon_delta"].is_array()) return {};
    std::vector<std::string> pairs;
    for (const json& pair : statement["equivalent_epsilon_delta"])
        if (pair.contains("epsilon") && pair.contains("delta") && pair["epsilon"].is_number() &&
            pair["delta"].is_number())
            pairs.push_back(
                fmt::format("(ε = {:.4g}, δ = {:g})-DP", pair["epsilon"].get<double>(), pair["delta"].get<double>()));
    return pairs.empty() ? std::string() : fmt::format(", which implies {}", fmt::join(pairs, " and "));
}

// The guarantee a private statement makes, in words.
std::string claim_html(const json& statement) {
    std::string out = fmt::format("<p><strong>Guarantee: {}</strong>{}.", escape_html(text_of(statement, "headline")),
                                  escape_html(equivalents(statement)));
    const std::string unit = text_of(statement, "protected_unit");
    const std::string neighbouring = text_of(statement, "neighbouring");
    if (!unit.empty()) out += fmt::format(" What is protected: {}", escape_html(unit));
    if (!neighbouring.empty()) out += fmt::format(" (neighbouring datasets: {})", escape_html(neighbouring));
    out += unit.empty() && neighbouring.empty() ? "</p>" : ".</p>";
    if (const std::string released = list_html(statement, "released"); !released.empty())
        out += "<p>What was released:</p>" + released;
    if (const std::string assumptions = list_html(statement, "assumptions"); !assumptions.empty())
        out += "<p>It holds under these assumptions:</p>" + assumptions;
    if (const std::string limits = list_html(statement, "not_protected"); !limits.empty())
        out += "<p>It does not protect:</p>" + limits;
    if (const std::string mechanism = text_of(statement, "mechanism"); !mechanism.empty())
        out += "<details><summary>How (the mechanism)</summary><p>" + escape_html(mechanism) + "</p></details>";
    return out;
}

std::string parameters_text(const json& module) {
    if (!module.contains("parameters") || !module["parameters"].is_object() || module["parameters"].empty()) return {};
    std::vector<std::string> pairs;
    for (const auto& [name, value] : module["parameters"].items())
        pairs.push_back(fmt::format("{} = {}", name, value.is_string() ? value.get<std::string>() : value.dump()));
    return fmt::format("{}", fmt::join(pairs, ", "));
}

}  // namespace

std::string privacy_html(const ReportFolder& folder) {
    const json& privacy = folder.first()["privacy"];
    std::string out = "<div class=\"privacy\">";
    const std::vector<std::string> headlines = privacy_headlines(folder.read.results);
    if (headlines.size() > 1)
        out += fmt::format("<p class=\"warning\">The repeats' statements differ: {}. Shown: the first repeat's.</p>",
                           escape_html(fmt::format("{}", fmt::join(headlines, " | "))));
    if (text_of(privacy, "notion") != "not private") {
        out += claim_html(privacy);
    } else if (privacy.contains("hypothetical") && privacy["hypothetical"].is_object()) {
        out += fmt::format("<p><strong>Not private as run:</strong> {}.</p>", escape_html(text_of(privacy, "why")));
        out +=
            "<p>With fresh secret noise (the same job run without <code>--seed</code>), it would carry this "
            "claim:</p><div class=\"hypothetical\">" +
            claim_html(privacy["hypothetical"]) + "</div>";
    } else {
        out += fmt::format("<p><strong>Not private:</strong> {}.</p>", escape_html(text_of(privacy, "mechanism")));
        if (const std::string released = list_html(privacy, "released"); !released.empty())
            out += "<p>Released, as they are:</p>" + released;
    }
    return out + "</div>";
}

std::string job_html(const ReportFolder& folder) {
    const json& result = folder.first();
    const json& job = result["job"];
    std::string out = "<dl class=\"job\">";
    const auto row = [&out](const std::string& term, const std::string& text) {
        out += fmt::format("<dt>{}</dt><dd>{}</dd>", escape_html(term), escape_html(text));
    };
    row("folder", folder.read.folder.string());
    row("repeats", fmt::format("{}", folder.read.results.size()));
    for (const char* role : {"algorithm", "objective", "surrogate", "acquisition", "accountant"}) {
        if (!job.contains(role) || !job[role].is_object() || !job[role].contains("name")) continue;
        const std::string parameters = parameters_text(job[role]);
        row(role, job[role]["name"].get<std::string>() + (parameters.empty() ? "" : " (" + parameters + ")"));
    }
    if (result.contains("objective") && result["objective"].is_object()) {
        const json& objective = result["objective"];
        if (const std::string data = text_of(objective, "data"); !data.empty()) row("data", data);
        if (const std::string sense = text_of(objective, "sense"); !sense.empty()) row("sense", sense);
    }
    if (result.contains("evaluations") && result["evaluations"].is_number())
        row("evaluations per repeat", result["evaluations"].dump());
    if (job.contains("seed") && !job["seed"].is_null()) row("seed", job["seed"].dump());
    return out + "</dl>";
}

}  // namespace dpbo::cli::report
