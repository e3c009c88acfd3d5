// `dpbo report`'s comparison: the table first, the noise warning by the rule docs/reports.md states
// (recomputed here from the result files), ε over the run, and a study file beside a run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report_checks.hpp"
#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;
using nlohmann::json;
using namespace dpbo::test::report;

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kLogreg = {
    "--objective", "logreg-validation", "--set", "objective.validation_records=200", "--set", "algorithm.budget=12"};

std::vector<std::string> with(std::vector<std::string> arguments, const std::vector<std::string>& more) {
    arguments.insert(arguments.end(), more.begin(), more.end());
    return arguments;
}

// The comparison row of `label`: its cells' HTML.
std::string row_of(const std::string& html, const std::string& label) {
    const std::string start = "<tr data-label=\"" + label + "\">";
    const std::size_t at = html.find(start);
    REQUIRE(at != std::string::npos);
    return html.substr(at, html.find("</tr>", at) - at);
}

std::string number_text(double value) {
    std::ostringstream out;
    out.precision(17);
    out << value;
    return out.str();
}

json result_of(const fs::path& folder) { return json::parse(read_text(folder / "result.json")); }

}  // namespace

TEST_CASE("cli report: the comparison comes first, and its noise warning follows the stated rule") {
    TemporaryDirectory dir;
    const fs::path first = fs::path(dir.path()) / "laplace-1", second = fs::path(dir.path()) / "laplace-2",
                   exact = fs::path(dir.path()) / "exact";
    // Δ = 1/200 on 12 values at ε = 0.5: Laplace scale 12 · 0.005 / 0.5 = 0.12 on each.
    for (const auto& [folder, seed] : {std::pair{first, "1"}, std::pair{second, "2"}})
        run_ok(with({"run", "--algorithm", "random-search", "--mechanism", "laplace", "--set", "mechanism.epsilon=0.5",
                     "--set", "algorithm.value_sensitivity=0.005", "--seed", seed, "--out", folder.string()},
                    kLogreg));
    run_ok(with({"run", "--algorithm", "gp-ucb", "--seed", "1", "--out", exact.string()}, kLogreg));
    const fs::path page = fs::path(dir.path()) / "page.html";
    run_ok({"report", first.string(), second.string(), exact.string(), "--out", page.string()});
    const std::string html = read_text(page);
    REQUIRE(contains(html, "id=\"comparison\""));
    CHECK(html.find("id=\"comparison\"") < html.find("<section class=\"folder\">"));

    // The release record of each private run: its scale, standard deviation and numbers.
    std::vector<double> released, deviation;
    for (const fs::path& folder : {first, second}) {
        const json result = result_of(folder);
        const json& noise = result["privacy_over_run"]["noise"];
        REQUIRE(noise.size() == 1);
        CHECK(noise[0]["scale"].get<double>() == doctest::Approx(0.12));
        CHECK(noise[0]["standard_deviation"].get<double>() == doctest::Approx(std::sqrt(2.0) * 0.12));
        const double best = result["released"]["best_value"]["value"].get<double>();
        CHECK(noise[0]["released_as"] == json::array({"best_value", "noisy_values"}));
        const std::vector<double> values = result["released"]["noisy_values"]["value"].get<std::vector<double>>();
        CHECK(std::count(values.begin(), values.end(), best) == 1);
        released.push_back(best);
        deviation.push_back(noise[0]["standard_deviation"].get<double>());
        // Rule (b): the nearest other number of its own release within 2·√2·s.
        double nearest = INFINITY;
        for (double v : values)
            if (v != best) nearest = std::min(nearest, std::abs(v - best));
        CHECK(contains(row_of(html, folder.filename().string()), "noise dominates the choice among the 12") ==
              (nearest < 2.0 * std::sqrt(2.0) * deviation.back()));
    }
    const double exact_value = result_of(exact)["released"]["best_value"]["value"].get<double>();
    // Rule (a), each way, against the other noisy run and against the exact one (s = 0).
    const bool noisy_pair = std::abs(released[0] - released[1]) <
                            2.0 * std::sqrt(deviation[0] * deviation[0] + deviation[1] * deviation[1]);
    CHECK(contains(row_of(html, "laplace-1"), "noise dominates the difference to laplace-2") == noisy_pair);
    CHECK(contains(row_of(html, "laplace-2"), "noise dominates the difference to laplace-1") == noisy_pair);
    for (std::size_t i = 0; i < 2; ++i) {
        const bool against_exact = std::abs(released[i] - exact_value) < 2.0 * deviation[i];
        CHECK(contains(row_of(html, i == 0 ? "laplace-1" : "laplace-2"), "noise dominates the difference to exact") ==
              against_exact);
    }
    const std::string exact_row = row_of(html, "exact");
    CHECK(contains(exact_row, "exact: not privatised"));
    CHECK(contains(exact_row, "lambda [log scale]"));
    CHECK(contains(row_of(html, "laplace-1"), "ε = 0.5 (pure ε-DP)"));
    // At least one warning fires in this set-up (else the rule is untested here): the best of 12
    // values each with noise of s.d. 0.17 among accuracies within a few hundredths.
    CHECK(contains(html, "noise dominates"));

    const std::vector<json> figures = figure_data(html);
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"laplace-1", first}, {"laplace-2", second}, {"exact", exact}});
    const json* spent = nullptr;
    for (const json& figure : figures)
        if (figure["title"] == "Privacy spent over the run: ε after each release") spent = &figure;
    REQUIRE(spent != nullptr);
    CHECK((*spent)["series"].size() == 2);
    CHECK((*spent)["y_label"] == "ε spent [ε-DP]");
}

TEST_CASE("cli report: a study file beside a run, its dimensions by name; a file that is no study is refused") {
    TemporaryDirectory dir;
    const fs::path spec = fs::path(dir.path()) / "spec.json", study = fs::path(dir.path()) / "study.db";
    write_text(spec, R"({"protocol": "dpbo-objective", "version": 1, "space": [
        {"name": "learning_rate", "lower": 0.0001, "upper": 1, "scale": "log"},
        {"name": "momentum", "lower": 0, "upper": 1}], "outputs": [{"name": "loss", "sense": "minimise"}],
        "records": 1})");
    run_ok({"study", "create", study.string(), "--algorithm", "gp-ucb", "--space", spec.string(), "--seed", "3",
            "--set", "algorithm.budget=6"});
    std::vector<double> told;
    for (int asks = 0; asks < 20; ++asks) {
        const json asked = json::parse(run_ok({"ask", study.string(), "--count", "3", "--json"}));
        if (asked["finished"].get<bool>()) break;
        for (const json& trial : asked["trials"]) {
            const double rate = trial["point"][0].get<double>(), momentum = trial["point"][1].get<double>();
            const double loss = std::pow(std::log10(rate) + 2.0, 2) + std::pow(momentum - 0.5, 2);
            run_ok({"tell", study.string(), std::to_string(trial["id"].get<int>()), "--value", number_text(loss)});
        }
    }
    const fs::path run = fs::path(dir.path()) / "run";
    run_ok(with({"run", "--algorithm", "gp-ucb", "--seed", "1", "--out", run.string()}, kLogreg));
    const fs::path page = fs::path(dir.path()) / "page.html";
    run_ok({"report", run.string(), study.string(), "--out", page.string()});
    const std::string html = read_text(page);
    const std::string row = row_of(html, "study.db");
    CHECK(contains(row, "study file"));
    CHECK(contains(row, "learning_rate [log scale]"));
    CHECK(contains(row, "momentum"));
    CHECK(contains(html, "1 run folder(s) and 1 study file(s)"));

    // The study's slice: the told values, marked evaluation only, against its dimension by name.
    const json shown = json::parse(run_ok({"study", "show", study.string(), "--json"}));
    std::vector<double> values;
    for (const json& trial : shown["trials"])
        if (trial["state"] == "done") values.push_back(trial["values"][0].get<double>());
    bool sliced = false;
    for (const json& figure : figure_data(html)) {
        if (figure["title"].get<std::string>().rfind("Slice: value of each evaluation against learning_rate", 0) != 0)
            continue;
        sliced = true;
        CHECK(figure["x_label"] == "learning_rate [log scale]");
        CHECK(figure["log_x"] == true);
        REQUIRE(figure["series"].size() == 1);
        CHECK(figure["series"][0]["evaluation_only"] == true);
        std::vector<double> plotted = figure["series"][0]["y"].get<std::vector<double>>();
        std::sort(plotted.begin(), plotted.end());
        std::sort(values.begin(), values.end());
        CHECK(plotted == values);
    }
    CHECK(sliced);

    const auto refused = run_dpbo({"report", (run / "result.json").string(), "--out", page.string()});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, (run / "result.json").string()));
    CHECK(contains(refused.err, "not a study file"));
    CHECK(contains(refused.err, "expected a run's --out folder or a study file"));
}
