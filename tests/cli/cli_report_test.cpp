// `dpbo report` end to end: real runs, the page built from their folders, every figure checked to be
// well-formed SVG and to plot exactly the numbers of the result files it came from.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
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

TEST_CASE(
    "cli report: DP-GIBO beside random search — every figure is well-formed SVG plotting the result files' numbers") {
    TemporaryDirectory dir;
    const fs::path gibo = fs::path(dir.path()) / "gibo", search = fs::path(dir.path()) / "search";
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "objective.dim=2", "--set",
            "algorithm.iterations=12", "--seed", "1", "--repeat", "3", "--out", gibo.string()});
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "objective.dim=2",
            "--set", "algorithm.budget=40", "--seed", "1", "--repeat", "4", "--out", search.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const std::string out = run_ok({"report", gibo.string(), search.string(), "--out", page.string(), "--json"});
    CHECK(json::parse(out)["out"] == page.string());
    const std::string html = read_text(page);
    REQUIRE(contains(html, "<!DOCTYPE html>"));
    const std::vector<json> figures = figure_data(html);
    CHECK(json::parse(out)["figures"] == figures.size());
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"gibo", gibo}, {"search", search}});

    // Regret: both folders in one figure, on a log scale, each repeat plus a median per folder.
    const json* regret = figure_plotting(figures, "simple_regret");
    REQUIRE(regret != nullptr);
    CHECK((*regret)["log_y"] == true);
    std::map<std::string, int> repeats, medians;
    for (const json& series : (*regret)["series"])
        ++(series["kind"] == "median" ? medians : repeats)[series["folder"].get<std::string>()];
    CHECK(repeats == std::map<std::string, int>{{"gibo", 3}, {"search", 4}});
    CHECK(medians == std::map<std::string, int>{{"gibo", 1}, {"search", 1}});
    CHECK(contains((*regret)["x_label"].get<std::string>(), "evaluations"));

    // DP-GIBO's own: the bias proxy against the noise norm per iteration, and the 2-D path.
    const json* bias = figure_plotting(figures, "gradient_trace");
    REQUIRE(bias != nullptr);
    bool noise = false;
    for (const json& series : (*bias)["series"]) {
        CHECK(series["x_column"] == "iteration");
        noise = noise || series["y_column"] == "noise_norm";
    }
    CHECK(noise);
    CHECK((*bias)["log_y"] == true);
    const json* path = figure_plotting(figures, "theta[1]");
    REQUIRE(path != nullptr);
    CHECK((*path)["series"].size() == 3);
    CHECK((*path)["series"][0]["x_column"] == "theta[0]");
    // Random search has no path: no figure draws its folder's points.
    for (const json& series : (*path)["series"]) CHECK(series["folder"] == "gibo");
}

TEST_CASE("cli report: the page states the privacy guarantee in plain words and marks evaluation-only quantities") {
    TemporaryDirectory dir;
    const fs::path seeded = fs::path(dir.path()) / "seeded", secret = fs::path(dir.path()) / "secret";
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.iterations=6",
            "--seed", "3", "--repeat", "3", "--out", seeded.string()});
    run_ok({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.iterations=6",
            "--out", secret.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    run_ok({"report", seeded.string(), secret.string(), "--out", page.string()});
    const std::string html = read_text(page);
    const auto folder_section = [&](const std::string& label) {
        const std::size_t at = html.find("<h2>" + label + ": dp-gibo");
        REQUIRE(at != std::string::npos);
        return html.substr(at, html.find("</section>", at) - at);
    };
    // Seeded: not private, with the claim it would carry and why it does not hold.
    const std::string seeded_text = folder_section("seeded");
    CHECK(contains(seeded_text, "Not private as run:"));
    CHECK(contains(seeded_text, "--seed 3"));
    CHECK(contains(seeded_text, "With fresh secret noise"));
    CHECK(contains(seeded_text, "Guarantee: 1-GDP"));
    // Secret noise: the guarantee itself — protected unit, neighbouring relation, (ε, δ), releases, assumptions,
    // what it does not protect.
    const std::string secret_text = folder_section("secret");
    CHECK_FALSE(contains(secret_text, "Not private"));
    CHECK(contains(secret_text, "Guarantee: 1-GDP"));
    CHECK(contains(secret_text, "(ε = 4.377, δ = 1e-05)-DP"));
    CHECK(contains(secret_text, "What is protected: one record of the objective&#39;s sensitive data"));
    CHECK(contains(secret_text, "neighbouring datasets: replace one record"));
    CHECK(contains(secret_text, "What was released:"));
    CHECK(contains(secret_text, "It holds under these assumptions:"));
    CHECK(contains(secret_text, "It does not protect:</p><ul><li>what is written beside the release"));
    CHECK(contains(seeded_text, "It does not protect:"));  // in the claim it would carry

    // The headline table: evaluation-only scalars under their own marked heading, medians as summary computes.
    const std::size_t table = html.find("<table class=\"headline\">");
    REQUIRE(table != std::string::npos);
    const std::string rows = html.substr(table, html.find("</table>", table) - table);
    CHECK(contains(rows, "evaluation only (not released): median over repeats"));
    const std::size_t regret_row = rows.find("<tr class=\"evaluation-only\"><th>simple_regret");
    REQUIRE(regret_row != std::string::npos);
    std::vector<double> regrets;
    for (int repeat = 1; repeat <= 3; ++repeat)
        regrets.push_back(json::parse(read_text(repeat_folder(seeded, repeat) /
                                                "result.json"))["evaluation_only"]["simple_regret"]["value"]
                              .get<double>());
    const std::size_t cell = rows.find("data-median=\"", regret_row) + 13;
    CHECK(std::strtod(rows.c_str() + cell, nullptr) == median(regrets));

    // Figures: evaluation-only columns marked in titles and legends, released ones not.
    const std::vector<json> figures = figure_data(html);
    check_every_svg(html, figures.size());
    check_series_against_files(figures, {{"seeded", seeded}, {"secret", secret}});
    const json* distance = figure_plotting(figures, "distance_to_optimum");
    REQUIRE(distance != nullptr);
    CHECK(contains((*distance)["title"].get<std::string>(), "evaluation only (not released)"));
    const json* bias = figure_plotting(figures, "gradient_trace");
    REQUIRE(bias != nullptr);
    CHECK(contains((*bias)["title"].get<std::string>(), "partly evaluation only (not released)"));
    for (const json& series : (*bias)["series"]) {
        const bool noise = series["y_column"] == "noise_norm";
        CHECK(series["evaluation_only"] == noise);
        if (series["kind"] == "median")
            CHECK(contains(series["legend"].get<std::string>(), "evaluation only (not released)") == noise);
    }
    // The marks reach the drawing itself, not only the data beside it.
    CHECK(contains(html,
                   "<text>DP-GIBO on seeded: bias proxy and privacy noise per iteration — partly evaluation "
                   "only (not released)</text>"));
}

TEST_CASE("cli report: bad input is refused naming the folder or file and what was expected, exit 2") {
    TemporaryDirectory dir;
    const fs::path run = fs::path(dir.path()) / "run";
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "algorithm.budget=20",
            "--seed", "1", "--out", run.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const auto refused = [&](const std::vector<std::string>& arguments, const std::vector<std::string>& said) {
        const auto r = run_dpbo(arguments);
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        for (const std::string& part : said) CHECK(contains(r.err, part));
        CHECK_FALSE(fs::exists(page));
    };
    SUBCASE("no folder") {
        refused({"report", "--out", page.string()}, {"report needs at least one result folder or study file"});
    }
    SUBCASE("a path that does not exist") {
        const fs::path missing = fs::path(dir.path()) / "missing";
        refused({"report", missing.string(), "--out", page.string()},
                {missing.string(), "does not exist", "expected a run's --out folder or a study file"});
    }
    SUBCASE("a folder without result.json") {
        const fs::path empty = fs::path(dir.path()) / "empty";
        fs::create_directory(empty);
        refused({"report", empty.string(), "--out", page.string()},
                {empty.string(), "holds no result.json", "expected a run's --out folder"});
    }
    SUBCASE("a corrupt result.json") {
        const std::string text = read_text(run / "result.json");
        write_text(run / "result.json", text.substr(0, text.size() / 2));
        refused({"report", run.string(), "--out", page.string()}, {(run / "result.json").string(), "not valid JSON"});
    }
    SUBCASE("a trace.csv whose columns differ from result.json's") {
        const std::string text = read_text(run / "trace.csv");
        const std::size_t at = text.find("simple_regret");
        write_text(run / "trace.csv", text.substr(0, at) + "regret_simple" + text.substr(at + 13));
        refused({"report", run.string(), "--out", page.string()},
                {(run / "trace.csv").string(), "regret_simple", "declares", "simple_regret"});
    }
    SUBCASE("a trace.csv cell that is not a number") {
        std::string text = read_text(run / "trace.csv");
        text[text.rfind(',') + 1] = 'x';
        write_text(run / "trace.csv", text);
        refused({"report", run.string(), "--out", page.string()}, {(run / "trace.csv").string(), "expected a number"});
    }
    SUBCASE("an --out in a folder that does not exist") {
        const fs::path nowhere = fs::path(dir.path()) / "missing" / "page.html";
        refused({"report", run.string(), "--out", nowhere.string()}, {nowhere.string(), "does not exist"});
    }
    SUBCASE("an --out that is a folder") {
        refused({"report", run.string(), "--out", dir.path()}, {dir.path(), "is a folder"});
    }
}

TEST_CASE("cli report: gnuplot missing or failing is named in the error, and no page is left") {
    TemporaryDirectory dir;
    const fs::path run = fs::path(dir.path()) / "run";
    run_ok({"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "algorithm.budget=20",
            "--seed", "1", "--out", run.string()});
    const fs::path page = fs::path(dir.path()) / "page.html";
    const auto missing =
        run_dpbo({"report", run.string(), "--out", page.string()}, {{"DPBO_GNUPLOT", "/nonexistent/gnuplot"}});
    CHECK(missing.exit_code == 1);
    CHECK(contains(missing.err, "cannot run gnuplot ('/nonexistent/gnuplot')"));
    CHECK(contains(missing.err, "gnuplot-nox"));
    const auto failing = run_dpbo({"report", run.string(), "--out", page.string()}, {{"DPBO_GNUPLOT", "false"}});
    CHECK(failing.exit_code == 1);
    CHECK(contains(failing.err, "gnuplot ('false') failed with exit status 1"));
    CHECK_FALSE(fs::exists(page));
    // And with gnuplot, the same folder reports (the refusals above were gnuplot's, not the folder's).
    run_ok({"report", run.string(), "--out", page.string()});
    CHECK(fs::exists(page));
}
