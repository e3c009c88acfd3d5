// Figures as data, end to end: test-declared-figure (tests/test_plugins) traces a column no host code
// knows and declares its figure in its result; `dpbo report` draws it from the result files alone —
// title, axes and numbers as declared — with no change to the host. A result whose figure spec is
// broken is refused naming the file and the key.
#include <doctest/doctest.h>

#include <filesystem>
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

fs::path run_declared_figure(const TemporaryDirectory& dir, const std::string& label) {
    const fs::path out = fs::path(dir.path()) / label;
    run_ok({"run", "--algorithm", "test-declared-figure", "--objective", "quadratic", "--set", "algorithm.steps=7",
            "--seed", "5", "--repeat", "2", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR, "--out", out.string()});
    return out;
}

}  // namespace

TEST_CASE("cli report: a third party's declared figure is drawn — title, axes and its trace's numbers") {
    TemporaryDirectory dir;
    const fs::path folder = run_declared_figure(dir, "halving");
    // The spec travels in result.json, so the report needs no plugin.
    const json result = json::parse(read_text(repeat_folder(folder, 1) / "result.json"));
    REQUIRE(result.contains("figures"));
    CHECK(result["figures"][0]["id"] == "test.halving-step");
    CHECK(result["figures"][0]["series"][0]["y"] == "halving_step");

    const fs::path page = fs::path(dir.path()) / "page.html";
    const json summary = json::parse(run_ok({"report", folder.string(), "--out", page.string(), "--json"}));
    const std::string html = read_text(page);
    CHECK(html_problem(html) == "");
    const std::vector<json> figures = figure_data(html);
    CHECK(summary["figures"] == figures.size());
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"halving", folder}});

    const json* declared = figure_plotting(figures, "halving_step");
    REQUIRE(declared != nullptr);
    CHECK((*declared)["title"] == "Halving step of halving over 2 repeat(s)");
    CHECK((*declared)["x_label"] == "step t [count]");
    CHECK((*declared)["y_label"] == "halving step 2^-t [step units, log scale]");
    CHECK((*declared)["log_y"] == true);
    CHECK((*declared)["log_x"] == false);
    CHECK((*declared)["evaluation_only"] == false);
    std::size_t repeats = 0;
    for (const json& series : (*declared)["series"]) {
        CHECK(series["x_column"] == "iteration");
        if (series["kind"] == "repeat") ++repeats;
        if (series["kind"] == "median") CHECK(series["legend"] == "halving: median halving step");
    }
    CHECK(repeats == 2);
    // The numbers are the trace's: 2^-t for t = 1..7.
    std::vector<double> expected;
    for (int t = 1; t <= 7; ++t) expected.push_back(1.0 / static_cast<double>(1 << t));
    check_numbers((*declared)["series"][0]["y"], expected);
    // Drawn in the folder's own section, and into the drawing itself.
    CHECK(contains(html, "test-declared-figure&#39;s own figures: halving"));
    CHECK(contains(html, "<text>Halving step of halving over 2 repeat(s)</text>"));
}

TEST_CASE("cli report: a result whose figure spec is broken is refused naming the file and the key, exit 2") {
    TemporaryDirectory dir;
    const fs::path folder = run_declared_figure(dir, "broken");
    const fs::path file = repeat_folder(folder, 1) / "result.json";
    // Key order kept: the report compares each repeat's job with the others'.
    nlohmann::ordered_json result = nlohmann::ordered_json::parse(read_text(file));
    result["figures"][0]["series"][0].erase("y");
    write_text(file, result.dump(2));
    const auto r = run_dpbo({"report", folder.string(), "--out", (fs::path(dir.path()) / "page.html").string()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, file.string()));
    CHECK(contains(r.err, "figures[0], series[0]: no \"y\""));

    result["figures"][0]["series"][0]["y"] = "halving_step";
    result["figures"][0]["scope"] = "everywhere";
    write_text(file, result.dump(2));
    const auto scope = run_dpbo({"report", folder.string(), "--out", (fs::path(dir.path()) / "page.html").string()});
    CAPTURE(scope.err);
    CHECK(scope.exit_code == 2);
    CHECK(contains(scope.err, "figure scope 'everywhere' is not one of: folder, across folders"));
}
