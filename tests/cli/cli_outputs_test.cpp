// Several outputs end to end, and the objective contract's refusals, through `dpbo run`.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A released matrix as rows (the result writes a single row as a flat array).
std::vector<std::vector<double>> rows_of(const nlohmann::json& value) {
    if (!value.is_array() || value.empty() || !value[0].is_array()) return {value.get<std::vector<double>>()};
    return value.get<std::vector<std::vector<double>>>();
}

// Distance from x to the segment from a to b.
double to_segment(const std::vector<double>& x, const std::vector<double>& a, const std::vector<double>& b) {
    const double dx = b[0] - a[0], dy = b[1] - a[1];
    double t = ((x[0] - a[0]) * dx + (x[1] - a[1]) * dy) / (dx * dx + dy * dy);
    t = std::clamp(t, 0.0, 1.0);
    return std::hypot(x[0] - a[0] - t * dx, x[1] - a[1] - t * dy);
}

}  // namespace

TEST_CASE("cli outputs: a two-output objective runs through the BO loop and the result carries its front") {
    TemporaryDirectory dir;
    const auto r =
        run_dpbo({"run", "--algorithm", "gp-ucb", "--objective", "two-distances", "--acquisition", "chebyshev-ucb",
                  "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR, "--set", "algorithm.budget=30", "--set",
                  "algorithm.initial_points=8", "--seed", "2", "--out", dir.path(), "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = nlohmann::json::parse(r.out);
    CHECK(result["evaluations"] == 30);
    CHECK(result["privacy"]["notion"] == "not private");
    const auto& outputs = result["objective"]["outputs"];
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[0]["name"] == "distance_a");
    CHECK(outputs[0]["sense"] == "minimise");
    CHECK(outputs[1]["name"] == "closeness_b");
    CHECK(outputs[1]["sense"] == "maximise");
    CHECK_FALSE(result["released"].contains("best_point"));
    const auto points = rows_of(result["released"]["pareto_points"]["value"]);
    const auto values = rows_of(result["released"]["pareto_values"]["value"]);
    REQUIRE(points.size() == values.size());
    CHECK(points.size() >= 3);
    const std::vector<double> a = {0.2, 0.3}, b = {0.8, 0.7};
    for (std::size_t i = 0; i < points.size(); ++i) {
        CAPTURE(i);
        // The values are the objective's at the released point, in user units and senses.
        const double da = std::pow(points[i][0] - a[0], 2) + std::pow(points[i][1] - a[1], 2);
        const double db = std::pow(points[i][0] - b[0], 2) + std::pow(points[i][1] - b[1], 2);
        CHECK(values[i][0] == doctest::Approx(da).epsilon(1e-12));
        CHECK(values[i][1] == doctest::Approx(-db).epsilon(1e-12));
        // No front point dominates another (distance_a minimised, closeness_b maximised).
        for (std::size_t j = 0; j < points.size(); ++j) {
            const bool dominates = values[j][0] <= values[i][0] && values[j][1] >= values[i][1] &&
                                   (values[j][0] < values[i][0] || values[j][1] > values[i][1]);
            CHECK_FALSE(dominates);
        }
    }
    // The trace has one value column per output and the front's size.
    std::vector<std::string> names;
    for (const auto& column : result["trace"]["columns"]) names.push_back(column["name"]);
    CHECK(std::find(names.begin(), names.end(), "value[distance_a]") != names.end());
    CHECK(std::find(names.begin(), names.end(), "value[closeness_b]") != names.end());
    CHECK(std::find(names.begin(), names.end(), "front_size") != names.end());
    CHECK(std::find(names.begin(), names.end(), "best_value") == names.end());

    // The loop found the Pareto set, the segment from a to b: the front lies on it or next to it.
    double front_distance = 0.0;
    for (const auto& p : points) front_distance += to_segment(p, a, b) / static_cast<double>(points.size());
    MESSAGE("mean distance of the ", points.size(), " front points to the Pareto set: ", front_distance);
    CHECK(front_distance < 0.05);
}

TEST_CASE("cli outputs: an acquisition for one output is refused on a two-output objective, naming both") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--algorithm", "gp-ucb", "--objective", "two-distances", "--plugin-path",
                             DPBO_TEST_FLAWED_PLUGIN_DIR, "--seed", "2", "--out", dir.path()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "acquisition 'ucb'"));
    CHECK(contains(r.err, "scores 1 output"));
    CHECK(contains(r.err, "objective 'two-distances'"));
    CHECK(contains(r.err, "declares 2: distance_a (minimise), closeness_b (maximise)"));
}

TEST_CASE("cli outputs: an objective that breaks the contract is refused naming the module and its file") {
    {
        TemporaryDirectory dir;
        const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", "mean-mismatch", "--plugin-path",
                                 DPBO_TEST_BROKEN_PLUGIN_DIR, "--seed", "1", "--out", dir.path()});
        CAPTURE(r.err);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "objective 'mean-mismatch'"));
        CHECK(contains(r.err, "broken-objective_mean_mismatch.so"));
        CHECK(contains(r.err, "mean of its 3 per-record losses"));
    }
    {
        TemporaryDirectory dir;
        const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", "wrong-shape", "--plugin-path",
                                 DPBO_TEST_BROKEN_PLUGIN_DIR, "--seed", "1", "--out", dir.path()});
        CAPTURE(r.err);
        CHECK(r.exit_code == 1);
        CHECK(contains(r.err, "objective 'wrong-shape'"));
        CHECK(contains(r.err, "broken-objective_wrong_shape.so"));
        CHECK(contains(r.err, "× 2 for"));
        CHECK(contains(r.err, "1 declared output"));
    }
}
