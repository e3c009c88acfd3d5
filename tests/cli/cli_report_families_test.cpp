// `dpbo report` for every shipped experiment family: tiny real runs from each family's experiment
// configs (budgets shrunk with --set), a page per family, its HTML and every <svg> well-formed, every
// plotted series equal to the numbers of the result files it names, and each paper's figure there.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report_checks.hpp"
#include "test_support.hpp"

using dpbo::test::TemporaryDirectory;
using nlohmann::json;
using namespace dpbo::test::report;

namespace fs = std::filesystem;

namespace {

std::string experiment(const std::string& algorithm, const std::string& name) {
    return (fs::path(DPBO_SOURCE_DIR) / "plugins" / "algorithms" / algorithm / "experiments" / name).string();
}

// Runs each folder's command (`--out` added), reports them together, checks the page and returns its figures.
std::vector<json> report_family(const TemporaryDirectory& dir,
                                const std::vector<std::pair<std::string, std::vector<std::string>>>& runs) {
    std::map<std::string, fs::path> folders;
    std::vector<std::string> report = {"report"};
    for (const auto& [label, arguments] : runs) {
        const fs::path out = fs::path(dir.path()) / label;
        std::vector<std::string> run = arguments;
        run.insert(run.end(), {"--out", out.string()});
        run_ok(run);
        folders[label] = out;
        report.push_back(out.string());
    }
    const fs::path page = fs::path(dir.path()) / "page.html";
    report.insert(report.end(), {"--out", page.string(), "--json"});
    const json summary = json::parse(run_ok(report));
    const std::string html = read_text(page);
    CHECK(html_problem(html) == "");
    const std::vector<json> figures = figure_data(html);
    CHECK(summary["figures"] == figures.size());
    check_every_svg(html, figures.size());
    check_series_against_files(figures, folders);
    return figures;
}

const json* titled(const std::vector<json>& figures, const std::string& start) {
    for (const json& figure : figures)
        if (figure["title"].get<std::string>().rfind(start, 0) == 0) return &figure;
    return nullptr;
}

std::size_t count_kind(const json& figure, const std::string& kind) {
    std::size_t n = 0;
    for (const json& series : figure["series"]) n += series["kind"] == kind ? 1 : 0;
    return n;
}

}  // namespace

TEST_CASE("cli report families: DPareto, random search and a fine grid on the SVT example — fronts and hypervolume") {
    TemporaryDirectory dir;
    const auto figures = report_family(
        dir, {{"dpareto",
               {"run", "--config", experiment("dpareto", "svt-dpareto.ini"), "--set", "algorithm.budget=24", "--set",
                "algorithm.initial_points=8", "--repeat", "2"}},
              {"random",
               {"run", "--algorithm", "random-search", "--objective", "svt", "--set", "algorithm.budget=24", "--seed",
                "1", "--repeat", "2"}},
              {"grid",
               {"run", "--config", experiment("dpareto", "svt-fine-grid.ini"), "--set", "algorithm.per_dimension=6"}}});
    const json* fronts = titled(figures, "Empirical Pareto fronts: error against epsilon");
    REQUIRE(fronts != nullptr);
    CHECK(count_kind(*fronts, "front") == 5);  // 2 + 2 repeats and the grid's one
    CHECK((*fronts)["log_x"] == true);
    CHECK(contains((*fronts)["x_label"].get<std::string>(), "ε"));
    CHECK(contains((*fronts)["y_label"].get<std::string>(), "error"));
    // The fine grid is named as the near-exact front.
    bool near_exact = false;
    for (const json& series : (*fronts)["series"])
        near_exact =
            near_exact || (series["folder"] == "grid" && contains(series["legend"].get<std::string>(), "near-exact"));
    CHECK(near_exact);
    // Hypervolume is drawn once, in DPareto's section, for the folders that trace it (not random search).
    std::size_t hypervolume_figures = 0;
    for (const json& figure : figures)
        for (const json& series : figure["series"])
            if (series["y_column"] == "hypervolume") {
                ++hypervolume_figures;
                break;
            }
    CHECK(hypervolume_figures == 1);
    const json* hypervolume = titled(figures, "Hypervolume of the empirical front");
    REQUIRE(hypervolume != nullptr);
    std::map<std::string, int> medians;
    for (const json& series : (*hypervolume)["series"])
        if (series["kind"] == "median") ++medians[series["folder"].get<std::string>()];
    CHECK(medians == std::map<std::string, int>{{"dpareto", 1}, {"grid", 1}});
}

TEST_CASE("cli report families: Kusner's DP-UCB at two ε — released point's regret against ε") {
    TemporaryDirectory dir;
    const auto ucb = [](const std::string& epsilon) {
        return std::vector<std::string>{"run",
                                        "--config",
                                        experiment("dp-ucb", "synthetic-gp-noisy-exponential.ini"),
                                        "--set",
                                        "algorithm.budget=6",
                                        "--set",
                                        "objective.grid=8",
                                        "--set",
                                        "algorithm.epsilon=" + epsilon,
                                        "--set",
                                        "selection.epsilon=" + epsilon,
                                        "--repeat",
                                        "3"};
    };
    const auto figures = report_family(dir, {{"eps-2", ucb("2")}, {"eps-0.5", ucb("0.5")}});
    const json* regret = titled(figures, "DP-UCB (Kusner et al.): regret of the released point against ε");
    REQUIRE(regret != nullptr);
    CHECK((*regret)["log_y"] == true);
    CHECK((*regret)["log_x"] == true);  // ε over decades, as Kusner et al. sweep it
    CHECK((*regret)["evaluation_only"] == true);
    CHECK(count_kind(*regret, "repeats") == 2);
    REQUIRE(count_kind(*regret, "folder medians") == 1);
    const json& medians = (*regret)["series"].back();
    CHECK(medians["folders"] == json::array({"eps-0.5", "eps-2"}));  // sorted by ε
    CHECK(medians["x"] == json::array({0.5, 2.0}));
}

TEST_CASE("cli report families: PO-GP-UCB at two r — regret over iterations per ε and r, and against r") {
    TemporaryDirectory dir;
    const auto po = [](const std::string& r) {
        return std::vector<std::string>{"run",
                                        "--config",
                                        experiment("po-gp-ucb", "synthetic-grid.ini"),
                                        "--set",
                                        "algorithm.budget=8",
                                        "--set",
                                        "objective.grid=8",
                                        "--set",
                                        "release.r=" + r,
                                        "--repeat",
                                        "2"};
    };
    const auto figures = report_family(dir, {{"r-10", po("10")}, {"r-4", po("4")}});
    const json* over_iterations = titled(figures, "PO-GP-UCB: simple regret over iterations");
    REQUIRE(over_iterations != nullptr);
    CHECK((*over_iterations)["log_y"] == true);
    std::vector<std::string> legends;
    for (const json& series : (*over_iterations)["series"])
        if (series["kind"] == "median") legends.push_back(series["legend"]);
    REQUIRE(legends.size() == 2);
    CHECK(contains(legends[0], "r-10: ε = 3, r = 10"));
    CHECK(contains(legends[1], "r-4: ε = 3, r = 4"));
    const json* against_r = titled(figures, "PO-GP-UCB: final simple regret against r");
    REQUIRE(against_r != nullptr);
    CHECK((*against_r)["series"].back()["x"] == json::array({4.0, 10.0}));
}

TEST_CASE("cli report families: DP-GIBO from its experiment config beside GP-UCB and random search baselines") {
    TemporaryDirectory dir;
    const auto figures = report_family(
        dir, {{"dp-gibo",
               {"run", "--config", experiment("dp-gibo", "normal-location-mu0.5.ini"), "--set",
                "algorithm.iterations=8", "--repeat", "2"}},
              {"gp-ucb",
               {"run", "--algorithm", "gp-ucb", "--objective", "normal-location", "--set", "algorithm.budget=12",
                "--set", "algorithm.initial_points=4", "--seed", "1", "--repeat", "2"}},
              {"random",
               {"run", "--algorithm", "random-search", "--objective", "normal-location", "--set", "algorithm.budget=24",
                "--seed", "1", "--repeat", "2"}}});
    const json* regret = figure_plotting(figures, "simple_regret");
    REQUIRE(regret != nullptr);
    std::map<std::string, int> medians;
    for (const json& series : (*regret)["series"])
        if (series["kind"] == "median") ++medians[series["folder"].get<std::string>()];
    CHECK(medians == std::map<std::string, int>{{"dp-gibo", 1}, {"gp-ucb", 1}, {"random", 1}});
    CHECK(figure_plotting(figures, "gradient_trace") != nullptr);
    // No cross-folder family applies: none of their sections is drawn.
    CHECK(titled(figures, "Empirical Pareto fronts") == nullptr);
    CHECK(titled(figures, "DP-UCB") == nullptr);
    CHECK(titled(figures, "PO-GP-UCB") == nullptr);
}
