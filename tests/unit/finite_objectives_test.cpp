// The objectives over finite datasets PO-GP-UCB's curator holds (table, loan-roi, property-price,
// branin-grid, branin's and synthetic-gp's grids), loaded through the registry: row counts, declared
// bounds, responses checked against values computed by hand from the shipped files (each with the line
// it comes from), the known optimum as the largest value over all rows, points off the rows refused,
// clear refusals of bad tables naming the key, the file and the line; and po-gp-ucb run on them, its
// modeler refusing rows that are not released and its statement claiming nothing.
#include <cmath>
#include <fstream>
#include <map>
#include <string>

#include <armadillo>

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

double reference(const dpbo::Objective& o, const std::string& name) {
    return dpbo::test::named_value(dpbo::reference_values(o), name)(0, 0);
}

// The known optimum is the largest value over all rows, and each of its points is a row with it.
void check_optimum_is_the_best_row(dpbo::Objective& o) {
    const arma::mat& rows = o.space().candidate_rows();
    const dpbo::Evaluations all = dpbo::test::evaluate(o, rows, false);
    CHECK(arma::all(all.candidate_rows == arma::regspace<arma::uvec>(0, rows.n_rows - 1)));
    const auto optimum = dpbo::known_optimum(o);
    REQUIRE(optimum);
    const double best = o.sense() == dpbo::Sense::Maximise ? all.values.max() : all.values.min();
    CHECK(optimum->value == best);
    REQUIRE(optimum->points.n_rows >= 1);
    for (arma::uword i = 0; i < optimum->points.n_rows; ++i)
        CHECK(value_at(o, optimum->points.row(i)) == optimum->value);
    CHECK(optimum->points.n_rows == arma::uvec(arma::find(all.values == best)).n_elem);
}

// The space's declared bounds, exactly.
bool bounds_are(const dpbo::SearchSpace& space, const arma::rowvec& lower, const arma::rowvec& upper) {
    return arma::approx_equal(space.lower(), lower, "absdiff", 0.0) &&
           arma::approx_equal(space.upper(), upper, "absdiff", 0.0);
}

void check_refuses_point(dpbo::Objective& o, const arma::rowvec& point, const std::string& owner) {
    CHECK_THROWS_WITH_AS(value_at(o, point), doctest::Contains(owner.c_str()), dpbo::ValidationError);
}

// The message of the ValidationError `table` throws for these parameters; "" when it throws none.
std::string refusal(const Parameters& parameters) {
    try {
        objective("table", parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

// A temporary CSV for `table`, rewritten per case.
struct TableFixture {
    dpbo::test::TemporaryDirectory dir;
    std::string path = dir.path() + "/t.csv";
    Parameters good = {{"file", path}, {"columns", "a,b"}, {"response", "y"}, {"bounds", "0:5,0:5"}};

    void write(const std::string& text) const { std::ofstream(path) << text; }
    Parameters with(const std::map<std::string, std::string>& changes) const {
        Parameters p = good;
        for (const auto& [key, value] : changes) p[key] = value;
        return p;
    }
};

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("loan-roi: 988 rows of the shipped sample, declared bounds, log returns by hand") {
    auto loans = objective("loan-roi");
    const dpbo::SearchSpace& space = loans->space();
    CHECK(loans->sense() == dpbo::Sense::Maximise);
    CHECK(space.is_finite());
    CHECK(space.bounds_declared());
    CHECK(space.candidate_rows().n_rows == 988);
    CHECK(bounds_are(space, arma::rowvec{0.0, 5.0, 0.0}, arma::rowvec{35000.0, 25.0, 250000.0}));
    // Line 2 of the shipped file (id,funded_amnt_inv,int_rate,annual_inc,total_pymnt_inv):
    // 1077501,4975,10.65,24000,5831.78.
    CHECK(value_at(*loans, {4975.0, 10.65, 24000.0}) == doctest::Approx(std::log(5831.78 / 4975.0)).epsilon(1e-12));
    // Line 394: 1064548,5000,6.62,276000,5524.94 — the income is clipped to the declared 250 000.
    CHECK(value_at(*loans, {5000.0, 6.62, 250000.0}) == doctest::Approx(std::log(5524.94 / 5000.0)).epsilon(1e-12));
    check_refuses_point(*loans, {5000.0, 6.62, 276000.0}, "objective 'loan-roi'");
    // Lines 24 and 25 share 10000,11.71,50000 (payments 11902.56 and 11536.31): the first is kept.
    CHECK(value_at(*loans, {10000.0, 11.71, 50000.0}) == doctest::Approx(std::log(11902.56 / 10000.0)).epsilon(1e-12));
    // Line 28: 1069800,8725,14.27,60000,0 — paid nothing, no logarithm: dropped.
    check_refuses_point(*loans, {8725.0, 14.27, 60000.0}, "objective 'loan-roi'");
    check_refuses_point(*loans, {4975.0, 10.65, 24001.0}, "objective 'loan-roi'");
    // Line 644: 1061772,8900,20.3,30000,13908.29 — the best return in the sample.
    const auto optimum = dpbo::known_optimum(*loans);
    REQUIRE(optimum);
    CHECK(optimum->value == doctest::Approx(std::log(13908.29 / 8900.0)).epsilon(1e-12));
    CHECK(arma::approx_equal(optimum->points, arma::mat{{8900.0, 20.3, 30000.0}}, "absdiff", 0.0));
    check_optimum_is_the_best_row(*loans);
    CHECK(reference(*loans, "rows") == 988.0);
    CHECK(reference(*loans, "rows_dropped") == 1.0);
    CHECK(reference(*loans, "rows_clipped") == 1.0);
    CHECK(reference(*loans, "rows_duplicated") == 11.0);
    // Data-dependent counts stay out of the description.
    CHECK(mentions(dpbo::data_description(*loans), "December 2011"));
    CHECK(mentions(dpbo::data_description(*loans), "36 000"));
    CHECK_FALSE(mentions(dpbo::data_description(*loans), "988"));
}

TEST_CASE("loan-roi: data_file reads another copy in the same schema") {
    dpbo::test::TemporaryDirectory dir;
    const std::string path = dir.path() + "/loans.csv";
    std::ofstream(path) << "id,funded_amnt_inv,int_rate,annual_inc,total_pymnt_inv\n"
                           "1,1000,7.5,40000,1100\n2,0,7.5,41000,10\n3,2000,30,300000,2500\n";
    auto loans = objective("loan-roi", {{"data_file", path}});
    CHECK(loans->space().candidate_rows().n_rows == 2);
    CHECK(reference(*loans, "rows_dropped") == 1.0);  // nothing funded: no return
    CHECK(reference(*loans, "rows_clipped") == 1.0);  // rate 30 % and income 300 000 clipped
    CHECK(value_at(*loans, {2000.0, 25.0, 250000.0}) == doctest::Approx(std::log(1.25)));
    std::ofstream(path) << "id,funded_amnt_inv,int_rate,annual_income,total_pymnt_inv\n1,1000,7.5,40000,1100\n";
    CHECK_THROWS_WITH_AS(objective("loan-roi", {{"data_file", path}}),
                         doctest::Contains("needs a column 'annual_inc', but the header (line 1) of data_file"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(objective("loan-roi", {{"data_file", dir.path() + "/none.csv"}}),
                         doctest::Contains("objective 'loan-roi': data_file = '"), dpbo::ValidationError);
}

TEST_CASE("property-price: the cheapest block group is the optimum, as the paper's agency looks for") {
    auto houses = objective("property-price");
    CHECK(houses->sense() == dpbo::Sense::Minimise);
    // Line 928 of the shipped sample: 9662,-120.870000,41.540000,34600.000000, the cheapest.
    const auto optimum = dpbo::known_optimum(*houses);
    REQUIRE(optimum);
    CHECK(optimum->value == doctest::Approx(std::log(34600.0)).epsilon(1e-12));
    REQUIRE(optimum->points.n_rows == 1);
    CHECK(optimum->points(0, 0) == doctest::Approx(-120.87));
    CHECK(optimum->points(0, 1) == doctest::Approx(41.54));
    check_optimum_is_the_best_row(*houses);
    CHECK(mentions(dpbo::data_description(*houses), "minimised"));
}

TEST_CASE("property-price, goal = dearest: 2 004 distinct locations inside California's box, log price by hand") {
    auto houses = objective("property-price", {{"goal", "dearest"}});
    const dpbo::SearchSpace& space = houses->space();
    CHECK(houses->sense() == dpbo::Sense::Maximise);
    CHECK(space.candidate_rows().n_rows == 2004);
    CHECK(space.bounds_declared());
    CHECK(bounds_are(space, arma::rowvec{-124.5, 32.5}, arma::rowvec{-114.0, 42.0}));
    // Line 2 of the shipped sample (row,longitude,latitude,median_house_value): 20,-122.270000,37.840000,162900.000000.
    CHECK(value_at(*houses, {-122.27, 37.84}) == doctest::Approx(std::log(162900.0)).epsilon(1e-12));
    // Line 928: 9662,-120.870000,41.540000,34600.000000, the cheapest.
    CHECK(value_at(*houses, {-120.87, 41.54}) == doctest::Approx(std::log(34600.0)).epsilon(1e-12));
    // The source caps values at 500 001: 85 rows share the top (e.g. line 360: 3572,-118.51,34.25).
    const auto optimum = dpbo::known_optimum(*houses);
    REQUIRE(optimum);
    CHECK(optimum->value == doctest::Approx(std::log(500001.0)).epsilon(1e-12));
    CHECK(optimum->points.n_rows == 85);
    check_optimum_is_the_best_row(*houses);
    check_refuses_point(*houses, {-122.27, 37.8405}, "objective 'property-price'");
    CHECK(reference(*houses, "rows_clipped") == 0.0);
    CHECK(reference(*houses, "rows_duplicated") == 0.0);
    CHECK(mentions(dpbo::data_description(*houses), "stand-in"));
}

TEST_CASE("branin-grid: -Branin maximised over the g x g grid of its box, declared bounds") {
    auto grid = objective("branin-grid", {{"grid", "4"}});
    const dpbo::SearchSpace& space = grid->space();
    CHECK(grid->sense() == dpbo::Sense::Maximise);
    CHECK(space.candidate_rows().n_rows == 16);
    CHECK(space.bounds_declared());
    CHECK(bounds_are(space, arma::rowvec{-5.0, 0.0}, arma::rowvec{10.0, 15.0}));
    // Levels -5, 0, 5, 10 and 0, 5, 10, 15, x1 varying fastest: row 1 is (0, 0), where
    // Branin = (0 − 0 + 0 − 6)² + 10·(1 − 1/(8π))·cos 0 + 10 = 56 − 1.25/π.
    const arma::rowvec origin = space.candidate_rows().row(1);
    CHECK(origin(0) == doctest::Approx(0.0));
    CHECK(origin(1) == 0.0);
    CHECK(value_at(*grid, origin) == doctest::Approx(-(56.0 - 1.25 / M_PI)).epsilon(1e-12));
    check_optimum_is_the_best_row(*grid);
    check_refuses_point(*grid, {1.0, 1.0}, "objective 'branin-grid'");

    // `branin` minimises the same function over the box: the values are its negatives, row for row.
    auto minimised = objective("branin");
    const arma::mat rows = space.candidate_rows();
    CHECK(arma::approx_equal(dpbo::test::evaluate(*grid, rows, false).values,
                             -dpbo::test::evaluate(*minimised, rows, false).values, "absdiff", 0.0));

    // The default is PO-GP-UCB's 100 × 100 grid; its best row lies within 0.05 of Branin's minimum.
    auto paper = objective("branin-grid");
    CHECK(paper->space().candidate_rows().n_rows == 10000);
    CHECK(dpbo::known_optimum(*paper)->value <= -5.0 / (4.0 * M_PI));
    CHECK(dpbo::known_optimum(*paper)->value >= -5.0 / (4.0 * M_PI) - 0.05);
    CHECK_THROWS_AS(objective("branin-grid", {{"grid", "1"}}), dpbo::ValidationError);
}

TEST_CASE("synthetic-gp's grid declares its box") {
    // PO-GP-UCB's synthetic GP: the 100 × 100 grid of [0, 10]², l = 1.25, σ_y² = 1, σ_n² = 1e-5.
    auto grid = objective("synthetic-gp", {{"dim", "2"},
                                           {"grid", "100"},
                                           {"lower", "0"},
                                           {"upper", "10"},
                                           {"lengthscale", "1.25"},
                                           {"signal_variance", "1"},
                                           {"noise_stddev", "0.00316"}});
    CHECK(grid->sense() == dpbo::Sense::Maximise);
    CHECK(grid->space().candidate_rows().n_rows == 10000);
    CHECK(grid->space().bounds_declared());
    CHECK(bounds_are(grid->space(), arma::rowvec{0.0, 0.0}, arma::rowvec{10.0, 10.0}));
    CHECK(dpbo::observation_noise_stddev(*grid) == 0.00316);
    check_optimum_is_the_best_row(*grid);
    check_refuses_point(*grid, {0.25, 0.0}, "objective 'synthetic-gp'");
}

TEST_CASE("table: any CSV with a header, quoted fields, another delimiter, clipping and repeats") {
    TableFixture t;
    t.write("\"a\",b,\"label, with comma\",y\n1,2,\"x, \"\"q\"\"\",3\n2,\"3\",z,4\n9,-1,w,5\n2,3,v,6\n\n");
    auto table = objective("table", t.good);
    CHECK(table->sense() == dpbo::Sense::Maximise);
    CHECK(table->space().bounds_declared());
    CHECK(table->space().candidate_rows().n_rows == 3);
    CHECK(value_at(*table, {1.0, 2.0}) == 3.0);
    CHECK(value_at(*table, {2.0, 3.0}) == 4.0);  // line 5 repeats line 3's features: the first is kept
    CHECK(value_at(*table, {5.0, 0.0}) == 5.0);  // line 4's (9, -1) clipped into [0, 5]²
    check_optimum_is_the_best_row(*table);
    CHECK(dpbo::known_optimum(*table)->value == 5.0);
    CHECK(reference(*table, "rows_clipped") == 1.0);
    CHECK(reference(*table, "rows_duplicated") == 1.0);
    CHECK(reference(*table, "rows_dropped") == 0.0);
    check_refuses_point(*table, {1.0, 2.5}, "objective 'table'");
    CHECK(dpbo::observation_noise_stddev(*table) == 0.0);

    t.write("a;b;y\n1;2;10\n2;3;100\n");
    auto logged = objective("table", t.with({{"delimiter", ";"}, {"transform", "log"}, {"noise_stddev", "0.1"}}));
    CHECK(value_at(*logged, {2.0, 3.0}) == doctest::Approx(std::log(100.0)));
    CHECK(dpbo::observation_noise_stddev(*logged) == 0.1);
    CHECK(mentions(refusal(t.with({{"delimiter", ";;"}})), "delimiter = ';;'"));
}

TEST_CASE("table: NA and empty fields are refused naming the line, or dropped with unusable = drop") {
    TableFixture t;
    t.write("a,b,y\n1,2,3\n2,3,NA\n3,,4\n");
    CHECK(mentions(refusal(t.good), "objective 'table': file '" + t.path +
                                        "' line 3, column 'y': 'NA' where a number was expected (set unusable = drop"));
    t.write("a,b,y\n1,2,3\n3,,4\n");
    CHECK(mentions(refusal(t.good), "line 3, column 'b': an empty field where a number was expected"));
    t.write("a,b,y\n1,2,3\n2,3,NA\n3,,4\n");
    auto dropped = objective("table", t.with({{"unusable", "drop"}}));
    CHECK(dropped->space().candidate_rows().n_rows == 1);
    CHECK(reference(*dropped, "rows_dropped") == 2.0);
}

TEST_CASE("table: every refusal names objective 'table', the key, the file and the line") {
    TableFixture t;
    t.write("a,b,y\n1,2,3\n2,3,4\n");
    REQUIRE(refusal(t.good).empty());
    // A missing file.
    const std::string missing = t.dir.path() + "/missing.csv";
    CHECK(mentions(refusal(t.with({{"file", missing}})), "objective 'table': file = '" + missing + "': no such file"));
    // Required keys.
    CHECK(mentions(refusal({}), "objective 'table': file, columns, response, bounds not given"));
    CHECK(mentions(refusal({{"file", t.path}, {"columns", "a,b"}}), "objective 'table': response, bounds not given"));
    // An unknown column: the key, the header's names and the nearest one.
    std::string message = refusal(t.with({{"columns", "a,bb"}, {"bounds", "0:5,0:5"}}));
    CHECK(
        mentions(message, "objective 'table': columns names column 'bb', but the header (line 1) of file '" + t.path));
    CHECK(mentions(message, "did you mean 'b'?"));
    CHECK(mentions(message, "its columns: a, b, y"));
    message = refusal(t.with({{"response", "Y"}}));
    CHECK(mentions(message, "response names column 'Y'"));
    CHECK(mentions(message, "did you mean 'y'?"));
    CHECK(mentions(refusal(t.with({{"columns", "a,a"}})), "columns = 'a,a' names 'a' twice"));
    // Bounds: one lo:hi per column, lo < hi.
    CHECK(mentions(refusal(t.with({{"bounds", "0:5"}})), "bounds = '0:5' gives 1 ranges for the 2 columns"));
    CHECK(mentions(refusal(t.with({{"bounds", "0:5,3:1"}})), "bounds has '3:1' for column 'b'; expected lo:hi"));
    CHECK(mentions(refusal(t.with({{"bounds", "0:5,2:2"}})), "'2:2' for column 'b'"));
    CHECK(mentions(refusal(t.with({{"bounds", "0:5,x:1"}})), "'x:1' for column 'b'"));
    // A value that is no number.
    t.write("a,b,y\n1,2,3\n2,three,4\n");
    CHECK(mentions(refusal(t.good), "file '" + t.path + "' line 3, column 'b': 'three' is not a finite number"));
    t.write("a,b,y\n1,2,inf\n");
    CHECK(mentions(refusal(t.good), "line 2, column 'y': 'inf' is not a finite number"));
    // The log of a response ≤ 0.
    t.write("a,b,y\n1,2,3\n2,3,0\n");
    CHECK(mentions(refusal(t.with({{"transform", "log"}})),
                   "line 3: column 'y': the response 0 has no logarithm (transform = log needs responses > 0); set "
                   "unusable = drop"));
    auto dropped = objective("table", t.with({{"transform", "log"}, {"unusable", "drop"}}));
    CHECK(dropped->space().candidate_rows().n_rows == 1);
    // A line with another number of fields, an unclosed quote.
    t.write("a,b,y\n1,2,3\n2,3\n");
    CHECK(mentions(refusal(t.good), "line 3 has 2 fields; the header has 3"));
    t.write("a,b,y\n1,\"2,3\n");
    CHECK(mentions(refusal(t.good), "line 2: a quote opened in field 2 is never closed"));
    // No row at all.
    t.write("a,b,y\n");
    CHECK(mentions(refusal(t.good), "has no usable row"));
}

TEST_CASE("po-gp-ucb: in one process the curator releases, the modeler searches Z, the run claims nothing") {
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("po-gp-ucb", {{"budget", "15"}, {"initial_points", "3"}});
    auto grid = objective("synthetic-gp",
                          {{"dim", "2"}, {"grid", "20"}, {"lower", "0"}, {"upper", "10"}, {"lengthscale", "1.25"}});
    dpbo::test::RunComponents components;
    components.roles["release"] =
        dpbo::test::make<dpbo::RowRelease>("noisy-projection", {{"epsilon", "2"}, {"r", "5"}});
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
    auto known = dpbo::test::make<dpbo::Algorithm>(
        "po-gp-ucb", {{"budget", "15"}, {"initial_points", "3"}, {"lengthscale", "4.4"}, {"noise_variance", "1e-5"}});
    const dpbo::RunResult with_known = dpbo::test::run_algorithm(*known, *grid, 1, components);
    CHECK(with_known.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
    CHECK(dpbo::test::named_value(with_known.released, "best_point").n_cols == 5);

    // An objective over a box is refused by the curator, naming what it needs.
    auto box = objective("branin");
    CHECK_THROWS_WITH_AS(dpbo::test::run_algorithm(*algorithm, *box, 1, components),
                         doctest::Contains("finite set of rows"), dpbo::ValidationError);
}
