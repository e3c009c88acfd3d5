// The objective contract, checked in one place (dpbo/evaluation_contract.hpp): shapes, NaN, and
// values equal to the mean of the per-record rows within the rounding of two summations.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

std::string refusal(const dpbo::Objective& objective, const arma::mat& points, const dpbo::Evaluations& result,
                    bool per_record = true) {
    dpbo::EvaluationRequest request;
    request.per_record = per_record;
    try {
        dpbo::check_evaluation_contract(objective, points, request, result);
    } catch (const dpbo::RunError& e) {
        return e.what();
    }
    return {};
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("evaluation contract: every shipped record objective meets it, noisy or not") {
    const std::vector<std::pair<std::string, std::map<std::string, std::string>>> objectives = {
        {"normal-location", {}},
        {"normal-location", {{"noise_stddev", "0.5"}, {"true_mean", "3"}, {"dim", "8"}}},
        {"huber-regression", {{"noise_stddev", "0.3"}}},
        {"gp-lengthscales", {{"dim", "2"}, {"records", "60"}, {"noise_stddev", "0.05"}}},
    };
    for (const auto& [name, parameters] : objectives) {
        CAPTURE(name);
        auto objective = dpbo::test::make<dpbo::Objective>(name, parameters);
        dpbo::ExperimentRng rng(9);
        const arma::mat points = objective->space().from_unit(rng.uniform(40, objective->space().dim()));
        // Through the evaluator, so the contract is checked on the exact values before any noise.
        CHECK_NOTHROW(dpbo::test::evaluate_as_run(*objective, points, true, &rng));
        // How much of the tolerance the shipped objectives use (a closed form for normal-location,
        // a row mean for the others), to see the bound is not met by a hair.
        const dpbo::Evaluations exact = dpbo::test::evaluate(*objective, points, true, &rng);
        double largest = 0.0;
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const arma::rowvec row = exact.per_record.row(i);
            largest = std::max(largest, std::abs(exact.values(i) - arma::mean(row)) / dpbo::row_mean_tolerance(row));
        }
        MESSAGE(name, ": largest |value − row mean| is ", largest, " of the tolerance");
        CHECK(largest <= 0.5);
    }
}

TEST_CASE("evaluation contract: observation noise is the host's, added after the check to the values only") {
    auto exact = dpbo::test::make<dpbo::Objective>("normal-location");
    auto noisy = dpbo::test::make<dpbo::Objective>("normal-location", {{"noise_stddev", "0.5"}});
    CHECK(dpbo::observation_noise_stddev(*exact) == 0.0);
    CHECK(dpbo::observation_noise_stddev(*noisy) == 0.5);
    const arma::mat points = {{0.5, 0.0, 0.0, 0.0, 0.0}, {1.0, 1.0, 1.0, 1.0, 1.0}};
    dpbo::EvaluationRequest request;
    request.per_record = true;
    // What the objective itself returns is exact, and so meets the contract.
    const dpbo::Evaluations returned = noisy->evaluate(points, request);
    CHECK(refusal(*noisy, points, returned).empty());
    CHECK(arma::approx_equal(returned.values, exact->evaluate(points, request).values, "absdiff", 0.0));
}

TEST_CASE("evaluation contract: a value that is not its row's mean is refused naming the module and its file") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location");
    const arma::mat points = {{0.5, 0.0, 0.0, 0.0, 0.0}};
    dpbo::EvaluationRequest request;
    request.per_record = true;
    dpbo::Evaluations result = objective->evaluate(points, request);
    const double tolerance = dpbo::row_mean_tolerance(result.per_record.row(0));
    // The tolerance is 2γ_(n+1)·mean|loss|: n = 50 records and u = 2⁻⁵³ give 2·51·u ≈ 1.1e-14 relative.
    const double mean_abs = arma::mean(arma::abs(result.per_record.row(0)));
    constexpr double u = std::numeric_limits<double>::epsilon() / 2.0;
    CHECK(tolerance == doctest::Approx(2.0 * 51.0 * u / (1.0 - 51.0 * u) * mean_abs).epsilon(1e-12));
    // Within the rounding it accepts, past it it refuses.
    dpbo::Evaluations rounding = result;
    rounding.values(0) = arma::mean(result.per_record.row(0)) + 0.5 * tolerance;
    CHECK(refusal(*objective, points, rounding).empty());
    dpbo::Evaluations shifted = result;
    shifted.values(0) = arma::mean(result.per_record.row(0)) + 4.0 * tolerance;
    const std::string message = refusal(*objective, points, shifted);
    CAPTURE(message);
    CHECK(mentions(message, "objective 'normal-location' (from "));
    CHECK(mentions(message, "objective-normal-location.so"));
    CHECK(mentions(message, "mean of its 50 per-record losses"));
}

TEST_CASE("evaluation contract: wrong shapes and NaN are refused with what was expected") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location", {{"dim", "2"}, {"records", "4"}});
    const arma::mat points = {{0.0, 0.0}, {1.0, 0.5}};
    dpbo::EvaluationRequest request;
    request.per_record = true;
    const dpbo::Evaluations good = objective->evaluate(points, request);
    CHECK(refusal(*objective, points, good).empty());

    dpbo::Evaluations two_columns = good;
    two_columns.values = arma::join_rows(good.values, good.values);
    CHECK(mentions(refusal(*objective, points, two_columns), "values of 2 × 2 for 2 points and 1 declared output"));
    dpbo::Evaluations short_values = good;
    short_values.values = good.values.head_rows(1);
    CHECK(mentions(refusal(*objective, points, short_values), "expected 2 × 1"));
    dpbo::Evaluations nan_value = good;
    nan_value.values(1) = arma::datum::nan;
    CHECK(mentions(refusal(*objective, points, nan_value), "output 'value' at point 1 (1, 0.5) is nan"));
    dpbo::Evaluations few_records = good;
    few_records.per_record = good.per_record.head_cols(3);
    CHECK(
        mentions(refusal(*objective, points, few_records), "per-record losses of 2 × 3 for 2 points; expected 2 × 4"));
    dpbo::Evaluations missing_records = good;
    missing_records.per_record.reset();
    CHECK(mentions(refusal(*objective, points, missing_records), "per-record losses of 0 × 0"));
    dpbo::Evaluations wrong_points = good;
    wrong_points.points = good.points.head_cols(1);
    CHECK(mentions(refusal(*objective, points, wrong_points), "returned points of 2 × 1"));
    dpbo::Evaluations wrong_rows = good;
    wrong_rows.candidate_rows = {1};
    CHECK(mentions(refusal(*objective, points, wrong_rows), "1 candidate rows for 2 points"));
}

TEST_CASE("evaluation contract: an objective declares one output named 'value' with its sense by default") {
    auto minimised = dpbo::test::make<dpbo::Objective>("branin");
    REQUIRE(minimised->outputs().size() == 1);
    CHECK(minimised->outputs()[0].name == "value");
    CHECK(minimised->outputs()[0].sense == dpbo::Sense::Minimise);
    auto maximised = dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "2"}});
    CHECK(maximised->outputs()[0].sense == dpbo::Sense::Maximise);
    // The registry records where every module came from.
    CHECK(minimised->origin().name == "branin");
    CHECK(mentions(minimised->origin().file.string(), "objective-branin.so"));
}

TEST_CASE("evaluation contract: auxiliary outputs are b × a finite numbers, and only when declared") {
    auto oracle = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "3"}});
    REQUIRE(oracle->auxiliary_outputs().size() == 2);
    const arma::mat points = {{1.0, 2.0}, {5.0, 7.0}};
    const dpbo::EvaluationRequest request;
    dpbo::Evaluations result = oracle->evaluate(points, request);
    CHECK(refusal(*oracle, points, result, false).empty());
    dpbo::Evaluations narrow = result;
    narrow.auxiliary.shed_col(1);
    CHECK(mentions(refusal(*oracle, points, narrow, false), "auxiliary outputs of 2 × 1 for 2 points"));
    dpbo::Evaluations missing = result;
    missing.auxiliary.reset();
    CHECK(mentions(refusal(*oracle, points, missing, false), "expected 2 × 2"));
    dpbo::Evaluations nan = result;
    nan.auxiliary(1, 0) = std::numeric_limits<double>::quiet_NaN();
    CHECK(mentions(refusal(*oracle, points, nan, false), "auxiliary output 'best_error' at point 1"));

    auto plain = dpbo::test::make<dpbo::Objective>("quadratic");
    const arma::mat point(1, plain->space().dim(), arma::fill::zeros);
    dpbo::Evaluations undeclared = plain->evaluate(point, request);
    undeclared.auxiliary = arma::mat(1, 1, arma::fill::value(1.0));
    CHECK(mentions(refusal(*plain, point, undeclared, false), "0 declared auxiliary outputs"));
}
