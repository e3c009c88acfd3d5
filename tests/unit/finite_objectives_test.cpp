// The objectives over finite datasets PO-GP-UCB's curator holds (table, loan-roi, property-price,
// branin's and synthetic-gp's grids), loaded through the registry: declared bounds, responses checked
// against values computed by hand from the shipped files, clear refusals of bad tables; and po-gp-ucb
// run on them, its modeler refusing rows that are not released and its statement claiming nothing.
#include <cmath>
#include <fstream>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/row_release.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Objective> objective(const std::string& name, const Parameters& parameters = {}) {
    return dpbo::test::make<dpbo::Objective>(name, parameters);
}

double value_at(dpbo::Objective& o, const arma::rowvec& point) {
    return dpbo::test::evaluate(o, arma::mat(point), false).values(0, 0);
}

std::string refusal(const Parameters& parameters) {
    try {
        objective("table", parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("loan-roi: the shipped sample, declared bounds, log return of a row by hand") {
    auto loans = objective("loan-roi");
    const dpbo::SearchSpace& space = loans->space();
    CHECK(space.is_finite());
    CHECK(space.bounds_declared());
    CHECK(space.upper()(0) == 35000.0);
    CHECK(space.upper()(2) == 250000.0);
    // Line 2 of the shipped file: 1077501,4975,10.65,24000,5831.78.
    CHECK(value_at(*loans, {4975.0, 10.65, 24000.0}) == doctest::Approx(std::log(5831.78 / 4975.0)).epsilon(1e-12));
    const auto optimum = loans->known_optimum();
    REQUIRE(optimum);
    CHECK(optimum->value == doctest::Approx(value_at(*loans, optimum->points.row(0))));
    const auto& reference = loans->reference_values();
    CHECK(dpbo::test::named_value(reference, "rows_dropped")(0, 0) == 1.0);   // a loan that paid nothing
    CHECK(dpbo::test::named_value(reference, "rows_clipped")(0, 0) == 1.0);   // one income above 250 000
    CHECK(space.candidate_rows().n_rows + dpbo::test::named_value(reference, "rows_dropped")(0, 0) +
              dpbo::test::named_value(reference, "rows_duplicated")(0, 0) ==
          1000.0);
    CHECK_THROWS_AS(value_at(*loans, {4975.0, 10.65, 24001.0}), dpbo::ValidationError);
}

TEST_CASE("property-price: 2 004 distinct locations inside California's box, log price by hand") {
    auto houses = objective("property-price");
    CHECK(houses->space().candidate_rows().n_rows == 2004);
    CHECK(houses->space().bounds_declared());
    // Line 2 of the shipped sample: 20,-122.270000,37.840000,162900.000000.
    CHECK(value_at(*houses, {-122.27, 37.84}) == doctest::Approx(std::log(162900.0)).epsilon(1e-12));
}

TEST_CASE("branin and synthetic-gp grids declare their box") {
    auto branin = objective("branin", {{"grid", "20"}});
    CHECK(branin->space().candidate_rows().n_rows == 400);
    CHECK(branin->space().bounds_declared());
    CHECK(branin->known_optimum()->value >= 5.0 / (4.0 * M_PI));
    auto grid = objective("synthetic-gp", {{"dim", "2"}, {"grid", "10"}, {"lower", "0"}, {"upper", "10"}});
    CHECK(grid->space().bounds_declared());
    CHECK(grid->space().upper()(1) == 10.0);
}

TEST_CASE("table: any CSV, with clear refusals naming the key, file and line") {
    dpbo::test::TemporaryDirectory dir;
    const std::string path = dir.path() + "/t.csv";
    std::ofstream(path) << "\"a\",b,y\n1,2,3\n2,\"3\",4\n9,1,NA\n";
    const Parameters good = {{"file", path}, {"columns", "a,b"}, {"response", "y"}, {"bounds", "0:5,0:5"},
                             {"unusable", "drop"}};
    auto table = objective("table", good);
    CHECK(table->space().candidate_rows().n_rows == 2);
    CHECK(value_at(*table, {2.0, 3.0}) == 4.0);
    CHECK(dpbo::test::named_value(table->reference_values(), "rows_dropped")(0, 0) == 1.0);

    Parameters p = good;
    p.erase("unusable");
    CHECK(mentions(refusal(p), "line 4, column 'y': 'NA' is not a finite number"));
    p = good;
    p["columns"] = "a,c";
    CHECK(mentions(refusal(p), "has no column 'c'"));
    p = good;
    p["bounds"] = "0:5";
    CHECK(mentions(refusal(p), "bounds = '0:5' gives 1 ranges for the 2 columns"));
    p = good;
    p["bounds"] = "0:5,3:1";
    CHECK(mentions(refusal(p), "'3:1' for column 'b'"));
    p = good;
    p["transform"] = "log";
    p["unusable"] = "refuse";
    std::ofstream(path) << "a,b,y\n1,2,0\n";
    CHECK(mentions(refusal(p), "line 2: the response 0 has no logarithm"));
    p = good;
    p["file"] = dir.path() + "/missing.csv";
    CHECK_THROWS(objective("table", p));
    CHECK(mentions(refusal({}), "file"));
}

TEST_CASE("po-gp-ucb: in one process the curator releases, the modeler searches Z, the run claims nothing") {
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("po-gp-ucb", {{"budget", "15"}, {"initial_points", "3"}});
    auto grid = objective("synthetic-gp", {{"dim", "2"}, {"grid", "20"}, {"lower", "0"}, {"upper", "10"},
                                           {"lengthscale", "1.25"}});
    dpbo::test::RunComponents components;
    components.roles["release"] = dpbo::test::make<dpbo::RowRelease>("noisy-projection", {{"epsilon", "2"}, {"r", "5"}});
    components.accountant = dpbo::test::make<dpbo::Accountant>("basic");
    const dpbo::RunResult result = dpbo::test::run_algorithm(*algorithm, *grid, 1, components);
    CHECK(result.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
    CHECK(mentions(result.privacy.mechanism, "(2, 1e-05)-DP"));
    CHECK(dpbo::test::named_value(result.released, "best_point").n_cols == 5);  // a row of Z, not of X
    const auto row = static_cast<arma::uword>(dpbo::test::named_value(result.released, "best_row")(0, 0));
    CHECK(dpbo::test::named_value(result.released, "best_value")(0, 0) ==
          doctest::Approx(value_at(*grid, grid->space().candidate_rows().row(row))));
    CHECK_NOTHROW(dpbo::test::named_value(result.evaluation_only, "simple_regret"));
    for (const auto& column : result.trace.columns())
        if (column.name == "simple_regret") CHECK(column.evaluation_only);
    REQUIRE(result.files.size() == 1);
    CHECK(result.files.front().name == "released_rows.csv");

    // Known hyperparameters (the paper's analysis): the run takes them instead of fitting.
    auto known = dpbo::test::make<dpbo::Algorithm>("po-gp-ucb", {{"budget", "15"}, {"initial_points", "3"},
                                                                  {"lengthscale", "4.4"}, {"noise_variance", "1e-5"}});
    const dpbo::RunResult with_known = dpbo::test::run_algorithm(*known, *grid, 1, components);
    CHECK(with_known.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
    CHECK(dpbo::test::named_value(with_known.released, "best_point").n_cols == 5);

    // An objective over a box is refused by the curator, naming what it needs.
    auto box = objective("branin");
    CHECK_THROWS_WITH_AS(dpbo::test::run_algorithm(*algorithm, *box, 1, components),
                         doctest::Contains("finite set of rows"), dpbo::ValidationError);
}
