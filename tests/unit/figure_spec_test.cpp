// Figure specs (dpbo/figure_spec.hpp) as result.json carries them: written and read back unchanged,
// and a spec the report could not draw refused, naming the figure and what is wrong.
#include <doctest/doctest.h>

#include <string>

#include "dpbo/errors.hpp"
#include "dpbo/figure_spec.hpp"
#include "dpbo/host/figure_spec_json.hpp"

namespace {

dpbo::FigureSpec sweep() {
    return {.id = "test.sweep",
            .title = "Regret against ε on {folder}",
            .caption = "braces {{like this}} stay",
            .x = {.label = "ε", .unit = "privacy loss", .log = true},
            .y = {.label = "regret", .unit = "", .log = false},
            .series = {{.source = dpbo::FigureSource::result,
                        .x = "/job/algorithm/parameters/epsilon",
                        .y = "/evaluation_only/simple_regret/value",
                        .legend = "median of {repeats}",
                        .repeat_legend = "each repeat",
                        .evaluation_only = true},
                       {.source = dpbo::FigureSource::front, .y = "/released/pareto_values/value"}},
            .scope = dpbo::FigureScope::across_folders,
            .evaluation_only = true};
}

bool same(const dpbo::FigureSpec& a, const dpbo::FigureSpec& b) {
    if (a.series.size() != b.series.size()) return false;
    for (std::size_t i = 0; i < a.series.size(); ++i) {
        const auto &s = a.series[i], &t = b.series[i];
        if (s.source != t.source || s.x != t.x || s.y != t.y || s.legend != t.legend ||
            s.repeat_legend != t.repeat_legend || s.evaluation_only != t.evaluation_only)
            return false;
    }
    return a.id == b.id && a.title == b.title && a.caption == b.caption && a.x.label == b.x.label &&
           a.x.unit == b.x.unit && a.x.log == b.x.log && a.y.label == b.y.label && a.y.unit == b.y.unit &&
           a.y.log == b.y.log && a.scope == b.scope && a.evaluation_only == b.evaluation_only;
}

std::string refusal(const dpbo::FigureSpec& figure) {
    try {
        dpbo::validate(figure);
    } catch (const dpbo::ValidationError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("figure spec: written to result.json's form and read back unchanged") {
    const auto json = dpbo::figures_json({sweep()});
    REQUIRE(json.size() == 1);
    CHECK(json[0]["scope"] == "across folders");
    CHECK(json[0]["series"][0]["source"] == "result");
    const auto read = dpbo::figures_from_json(json, "result.json");
    REQUIRE(read.size() == 1);
    CHECK(same(read[0], sweep()));
}

TEST_CASE("figure spec: what the report could not draw is refused, naming the figure and the fault") {
    dpbo::FigureSpec bad = sweep();
    bad.id = "Not An Id";
    CHECK(refusal(bad).find("figure id 'Not An Id'") != std::string::npos);
    bad = sweep();
    bad.series.clear();
    CHECK(refusal(bad) == "figure 'test.sweep' has no series to draw");
    bad = sweep();
    bad.series[0].x = "job/algorithm/parameters/epsilon";
    CHECK(refusal(bad).find("series 1 reads result.json at x 'job/algorithm/parameters/epsilon'; expected a JSON "
                            "pointer starting with '/'") != std::string::npos);
    bad = sweep();
    bad.title = "Regret {folder";
    CHECK(refusal(bad).find("its title 'Regret {folder' opens a placeholder") != std::string::npos);
    bad = sweep();
    bad.caption = "a lone } here";
    CHECK(refusal(bad).find("lone '}'") != std::string::npos);
    bad = sweep();
    bad.series[1].y.clear();
    CHECK(refusal(bad) == "figure 'test.sweep': series 2 names no y to read");
    CHECK_THROWS_AS(dpbo::figure_source_from_string("table"), dpbo::ValidationError);
}

TEST_CASE("figure spec: a result's figures with a key missing or of the wrong type name the file and the key") {
    auto json = dpbo::figures_json({sweep()});
    json[0].erase("title");
    CHECK_THROWS_WITH(dpbo::figures_from_json(json, "r/result.json"), "r/result.json: figures[0]: no \"title\"");
    json = dpbo::figures_json({sweep()});
    json[0]["x"]["log"] = "yes";
    CHECK_THROWS_WITH(dpbo::figures_from_json(json, "r/result.json"),
                      "r/result.json: figures[0], axis \"x\": \"log\" is \"yes\"; expected true or false");
    CHECK_THROWS_WITH(dpbo::figures_from_json(nlohmann::ordered_json::object(), "r/result.json"),
                      "r/result.json: \"figures\" is an object; expected a list of figures");
}
