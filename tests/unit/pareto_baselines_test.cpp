// DPareto's baselines: random search with the per-dimension distributions of the paper's Tables 3–4,
// and random / grid search over a two-output objective, which keep the Pareto front and its exact
// hypervolume instead of a best point.
#include <cmath>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/bo/pareto.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"
#include "sampling_distributions.hpp"
#include "repetitions.hpp"
#include "test_support.hpp"

namespace {

// Table 4's ADULT domain (Table 1 ranges).
dpbo::SearchSpace adult_space() {
    return dpbo::SearchSpace::box({{.name = "epochs", .lower = 1, .upper = 64, .integer = true},
                                   {.name = "lot_size", .lower = 8, .upper = 512, .integer = true},
                                   {.name = "learning_rate", .lower = 1e-3, .upper = 1e-1},
                                   {.name = "noise_variance", .lower = 0.1, .upper = 16},
                                   {.name = "clipping_norm", .lower = 0.1, .upper = 4}});
}

const std::string kTable4 =
    "epochs: uniform; lot_size: normal(128, 64); learning_rate: shifted-exponential(10, 1e-3); "
    "noise_variance: shifted-exponential(0.1, 0.1); clipping_norm: shifted-exponential(0.1, 0.1)";

std::string validation_message(const std::string& spec) {
    try {
        dpbo::sampling::Distributions(adult_space(), spec, "algorithm 'random-search': distributions");
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

TEST_CASE("sampling distributions: Table 4's shifted exponential, truncated to its accept range, has its mean") {
    const dpbo::sampling::Distributions distributions(adult_space(), kTable4, "distributions");
    dpbo::ExperimentRng rng(3);
    constexpr std::size_t kDraws = 20000;
    const arma::mat points = distributions.sample(kDraws, rng);
    // Learning rate: 1e-3 + Exp(rate 10) truncated to [1e-3, 1e-1], i.e. Exp(10) truncated to [0, w]
    // with w = 0.099: mean 1/λ − w e^{−λw}/(1 − e^{−λw}), variance from the same law.
    const double rate = 10.0, width = 0.099;
    const double tail = std::exp(-rate * width);
    const double mean = 1.0 / rate - width * tail / (1.0 - tail);
    const double second = 2.0 / (rate * rate) - (width * width + 2.0 * width / rate) * tail / (1.0 - tail);
    const double stddev = std::sqrt(second - mean * mean);
    const arma::vec rates = points.col(2) - 1e-3;
    CHECK(rates.min() >= 0.0);
    CHECK(rates.max() <= width);
    // Four standard errors of the sample mean.
    CHECK(std::abs(arma::mean(rates) - mean) <= 4.0 * stddev / std::sqrt(double(kDraws)));
    // Integer dimensions are integers inside their ranges; the lot size keeps the normal's centre.
    CHECK(arma::all(points.col(0) == arma::round(points.col(0))));
    CHECK(arma::all(points.col(1) == arma::round(points.col(1))));
    CHECK(points.col(0).min() >= 1);
    CHECK(points.col(0).max() <= 64);
    CHECK(points.col(1).min() >= 8);
    CHECK(points.col(1).max() <= 512);
    CHECK(std::abs(arma::median(points.col(1)) - 128.0) <= 3.0);
    CHECK(points.col(4).max() <= 4.0);
    CHECK(points.col(4).min() >= 0.1);
}

TEST_CASE("sampling distributions: bad specifications are refused naming the key and the part") {
    CHECK(validation_message("epoch: uniform").find("'epoch' names no dimension") != std::string::npos);
    CHECK(validation_message("epoch: uniform").find("epochs, lot_size") != std::string::npos);
    CHECK(validation_message("epochs: uniform; epochs: uniform").find("given twice") != std::string::npos);
    CHECK(validation_message("lot_size: gamma(1, 2)").find("unknown distribution 'gamma'") != std::string::npos);
    CHECK(validation_message("lot_size: normal(1)").find("normal(MEAN, STDDEV)") != std::string::npos);
    CHECK(validation_message("lot_size: normal(1, -2)").find("standard deviation must be > 0") != std::string::npos);
    CHECK(validation_message("learning_rate: shifted-exponential(0, 1)").find("rate must be > 0") != std::string::npos);
    CHECK(validation_message("lot_size: normal(1, x)").find("'x' is not a finite number") != std::string::npos);
    CHECK(validation_message("epochs: uniform;").find("empty entry") != std::string::npos);
    CHECK(validation_message("epochs uniform").find("is not NAME:KIND(ARGS)") != std::string::npos);
    CHECK(validation_message(kTable4).empty());
    // A range the distribution never reaches is an error naming it, not a hang.
    const dpbo::sampling::Distributions unreachable(adult_space(), "lot_size: normal(100000, 1)", "distributions");
    dpbo::ExperimentRng rng(1);
    CHECK_THROWS_WITH_AS(unreachable.sample(1, rng), doctest::Contains("sampling dimension 'lot_size' from normal"),
                         dpbo::RunError);
}

TEST_CASE(
    "random-search and grid-search on two outputs: the released front is the non-dominated set, the "
    "hypervolume trace is exact and never falls") {
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "5"}});
    const std::vector<dpbo::Sense> senses{dpbo::Sense::Minimise, dpbo::Sense::Minimise};
    const arma::rowvec reference{10.0, 1.0};
    for (const auto& [name, parameters] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
             {"random-search", {{"budget", "60"}, {"reference", "10, 1"}}},
             {"grid-search", {{"per_dimension", "8"}, {"reference", "10, 1"}}}}) {
        CAPTURE(name);
        auto algorithm = dpbo::test::make<dpbo::Algorithm>(name, parameters);
        const dpbo::RunResult result = dpbo::test::run_algorithm(*algorithm, *objective, 4);
        const arma::mat& values = dpbo::test::named_value(result.released, "values");
        const arma::mat& front = dpbo::test::named_value(result.released, "pareto_values");
        CHECK(values.n_cols == 2);
        CHECK(arma::approx_equal(front, arma::mat(values.rows(dpbo::non_dominated(values, senses))), "absdiff", 0.0));
        const arma::vec hypervolume = dpbo::test::trace_column(result.trace, "hypervolume");
        CHECK(arma::all(arma::diff(hypervolume) >= 0.0));
        CHECK(hypervolume(hypervolume.n_elem - 1) == dpbo::hypervolume_2d(values, reference, senses));
        CHECK(dpbo::test::named_value(result.released, "hypervolume")(0, 0) == hypervolume(hypervolume.n_elem - 1));
        CHECK(result.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
    }
}

TEST_CASE("several-output searches release the oracle's best and worst repetition of every point") {
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "6"}});
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("random-search", {{"budget", "12"}});
    const dpbo::RunResult result = dpbo::test::run_algorithm(*algorithm, *objective, 5);
    const arma::mat& points = dpbo::test::named_value(result.released, "points");
    const arma::mat& values = dpbo::test::named_value(result.released, "values");
    const arma::mat& auxiliary = dpbo::test::named_value(result.released, "auxiliary");
    REQUIRE(auxiliary.n_rows == 12);
    REQUIRE(auxiliary.n_cols == 2);
    CHECK(arma::all(auxiliary.col(0) <= values.col(1)));
    CHECK(arma::all(values.col(1) <= auxiliary.col(1)));
    // The same numbers as the objective gives for the point on its own: exact, not re-drawn.
    const dpbo::Evaluations again = dpbo::test::evaluate(*objective, points.rows(0, 2), false, nullptr);
    CHECK(arma::approx_equal(again.auxiliary, auxiliary.rows(0, 2), "absdiff", 0.0));
    const arma::uvec front = dpbo::non_dominated(values, {dpbo::Sense::Minimise, dpbo::Sense::Minimise});
    CHECK(arma::approx_equal(dpbo::test::named_value(result.released, "pareto_auxiliary"),
                             arma::mat(auxiliary.rows(front)), "absdiff", 0.0));
}

TEST_CASE("repetition_errors: the mean, best and worst error of R utilities") {
    const dpbo::plugin_data::RepetitionErrors errors = dpbo::plugin_data::repetition_errors({0.8, 0.5, 0.9, 0.6});
    CHECK(errors.mean == doctest::Approx(1.0 - 2.8 / 4.0).epsilon(1e-15));
    CHECK(errors.best == doctest::Approx(0.1).epsilon(1e-15));
    CHECK(errors.worst == doctest::Approx(0.5).epsilon(1e-15));
    CHECK_THROWS(dpbo::plugin_data::repetition_errors({}));
}

TEST_CASE("random-search with Table 4's distributions draws its points from them") {
    auto algorithm = dpbo::test::make<dpbo::Algorithm>(
        "random-search", {{"budget", "40"}, {"distributions", "noise: shifted-exponential(1, 0.01)"}});
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "2"}});
    const dpbo::RunResult result = dpbo::test::run_algorithm(*algorithm, *objective, 9);
    const arma::mat& points = dpbo::test::named_value(result.released, "points");
    // 0.01 + Exp(1) truncated to [0.01, 100]: the median is 0.01 + ln 2 ≈ 0.70, far below the
    // log-uniform median 1 (and above the lower bound: the shape is kept).
    CHECK(arma::median(points.col(0)) < 1.5);
    CHECK(arma::all(points.col(1) == arma::round(points.col(1))));
    auto unknown = dpbo::test::make<dpbo::Algorithm>("random-search", {{"distributions", "epochs: uniform"}});
    CHECK_THROWS_WITH_AS(dpbo::test::run_algorithm(*unknown, *objective, 1),
                         doctest::Contains("'epochs' names no dimension"), dpbo::ValidationError);
}

TEST_CASE("several-output searches refuse a mechanism, and one-output searches refuse a reference") {
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "2"}});
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("random-search", {{"budget", "5"}});
    dpbo::test::RunComponents components;
    components.roles["mechanism"] = dpbo::test::make<dpbo::Mechanism>("laplace", {{"epsilon", "1"}});
    CHECK_THROWS_WITH_AS(dpbo::test::run_algorithm(*algorithm, *objective, 1, components),
                         doctest::Contains("cannot privatise it"), dpbo::ValidationError);
    auto quadratic = dpbo::test::make<dpbo::Objective>("quadratic");
    auto with_reference = dpbo::test::make<dpbo::Algorithm>("random-search", {{"reference", "1, 1"}});
    CHECK_THROWS_WITH_AS(dpbo::test::run_algorithm(*with_reference, *quadratic, 1),
                         doctest::Contains("reference is for objectives with two outputs"), dpbo::ValidationError);
}
