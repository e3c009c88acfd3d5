// The benchmark objectives branin, rosenbrock and quadratic, loaded through the registry.
#include <cmath>
#include <map>
#include <numbers>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

arma::vec values_at(dpbo::Objective& objective, const arma::mat& points, dpbo::ExperimentRng* rng = nullptr) {
    return dpbo::test::evaluate_as_run(objective, points, false, rng).values;
}

double value_at(dpbo::Objective& objective, const arma::rowvec& point) {
    return values_at(objective, arma::mat(point))(0);
}

// The ValidationError message of creating the objective, or "" if it was accepted.
std::string refusal(const std::string& name, const Parameters& parameters) {
    try {
        dpbo::test::make<dpbo::Objective>(name, parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

// Every known optimiser evaluates to the known optimum value.
void check_known_optimisers(dpbo::Objective& objective, double expected_value) {
    const auto optimum = dpbo::known_optimum(objective);
    REQUIRE(optimum.has_value());
    CHECK(std::abs(optimum->value - expected_value) <= 1e-9);
    REQUIRE(optimum->points.n_rows >= 1);
    const arma::vec values = values_at(objective, optimum->points);
    for (arma::uword i = 0; i < values.n_elem; ++i) {
        CAPTURE(i);
        CHECK(std::abs(values(i) - expected_value) <= 1e-9);
    }
}

}  // namespace

TEST_CASE("branin: the three known minimisers give 0.397887357729738") {
    auto branin = dpbo::test::make<dpbo::Objective>("branin");
    CHECK(branin->sense() == dpbo::Sense::Minimise);
    CHECK(dpbo::known_optimum(*branin)->points.n_rows == 3);
    check_known_optimisers(*branin, 0.397887357729738);
    // The third minimiser as usually printed (3π rounded to 8 decimals) is still within 1e-9.
    CHECK(std::abs(value_at(*branin, {9.42477796, 2.475}) - 0.397887357729738) <= 1e-9);
}

TEST_CASE("branin: hand-computed values away from the minimisers") {
    auto branin = dpbo::test::make<dpbo::Objective>("branin");
    const double t = 1.0 / (8.0 * std::numbers::pi);
    // (0, 0): (0 − 0 + 0 − 6)² + 10(1 − t)cos 0 + 10 = 56 − 10t.
    CHECK(value_at(*branin, {0.0, 0.0}) == doctest::Approx(56.0 - 10.0 * t).epsilon(1e-14));
    CHECK(value_at(*branin, {0.0, 0.0}) == doctest::Approx(55.602112642270262).epsilon(1e-14));
    // (0, 15): (15 − 6)² + 10(1 − t) + 10 = 101 − 10t.
    CHECK(value_at(*branin, {0.0, 15.0}) == doctest::Approx(101.0 - 10.0 * t).epsilon(1e-14));
    const dpbo::SearchSpace& space = branin->space();
    CHECK(space.dim() == 2);
    CHECK(arma::approx_equal(space.lower(), arma::rowvec{-5.0, 0.0}, "absdiff", 0.0));
    CHECK(arma::approx_equal(space.upper(), arma::rowvec{10.0, 15.0}, "absdiff", 0.0));
}

TEST_CASE("rosenbrock: optimum 0 at all-ones and hand-computed values") {
    auto rosenbrock2 = dpbo::test::make<dpbo::Objective>("rosenbrock");
    check_known_optimisers(*rosenbrock2, 0.0);
    CHECK(value_at(*rosenbrock2, {0.0, 0.0}) == 1.0);    // 100·0² + 1²
    CHECK(value_at(*rosenbrock2, {-1.0, 1.0}) == 4.0);   // 100·(1 − 1)² + 2²
    CHECK(value_at(*rosenbrock2, {1.0, 0.0}) == 100.0);  // 100·(0 − 1)² + 0²
    CHECK(rosenbrock2->space().lower()(0) == -2.048);
    CHECK(rosenbrock2->space().upper()(1) == 2.048);

    auto rosenbrock5 = dpbo::test::make<dpbo::Objective>("rosenbrock", {{"dim", "5"}});
    CHECK(rosenbrock5->space().dim() == 5);
    check_known_optimisers(*rosenbrock5, 0.0);
    // Each of the 4 terms at 0.5: 100·(0.5 − 0.25)² + 0.5² = 6.5.
    CHECK(value_at(*rosenbrock5, arma::rowvec(5, arma::fill::value(0.5))) == doctest::Approx(26.0).epsilon(1e-14));
}

TEST_CASE("quadratic: optimum 0 at the centre and hand-computed values") {
    auto default_centre = dpbo::test::make<dpbo::Objective>("quadratic");
    check_known_optimisers(*default_centre, 0.0);
    CHECK(arma::approx_equal(dpbo::known_optimum(*default_centre)->points, arma::mat{{0.3, 0.3}}, "absdiff", 0.0));
    CHECK(value_at(*default_centre, {0.0, 0.0}) == doctest::Approx(0.18).epsilon(1e-14));

    auto given_centre = dpbo::test::make<dpbo::Objective>("quadratic", {{"dim", "3"}, {"centre", "0.1,0.9,0.5"}});
    check_known_optimisers(*given_centre, 0.0);
    // 0.1² + 0.9² + 0.5² = 0.01 + 0.81 + 0.25.
    CHECK(value_at(*given_centre, {0.0, 0.0, 0.0}) == doctest::Approx(1.07).epsilon(1e-14));
    // 0.9² + 0.1² + 0.5².
    CHECK(value_at(*given_centre, {1.0, 1.0, 1.0}) == doctest::Approx(1.07).epsilon(1e-14));
}

TEST_CASE("objectives: a batch evaluates to the same values as its points one at a time") {
    const std::map<std::string, Parameters> objectives{
        {"branin", {}}, {"rosenbrock", {{"dim", "4"}}}, {"quadratic", {{"dim", "3"}}}};
    for (const auto& [name, parameters] : objectives) {
        CAPTURE(name);
        auto objective = dpbo::test::make<dpbo::Objective>(name, parameters);
        dpbo::ExperimentRng rng(11);
        const arma::mat points = objective->space().sample(200, rng);
        const dpbo::Evaluations batch = objective->evaluate(points, {});
        REQUIRE(batch.values.n_elem == 200);
        CHECK(arma::approx_equal(batch.points, points, "absdiff", 0.0));
        double largest_gap = 0.0;
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double single = value_at(*objective, points.row(i));
            largest_gap = std::max(largest_gap, std::abs(single - batch.values(i)) / std::max(1.0, std::abs(single)));
        }
        CHECK(largest_gap <= 1e-14);
    }
}

TEST_CASE("objectives: invalid parameters are refused naming the key") {
    // lower ≥ upper, and a box that excludes the optimum 1: both keys are named.
    for (const Parameters& bad :
         {Parameters{{"lower", "3"}}, Parameters{{"lower", "1.5"}, {"upper", "2"}}, Parameters{{"upper", "0.5"}}}) {
        const std::string message = refusal("rosenbrock", bad);
        CAPTURE(message);
        CHECK(mentions(message, "rosenbrock"));
        CHECK(mentions(message, "lower"));
        CHECK(mentions(message, "upper"));
    }
    CHECK(mentions(refusal("rosenbrock", {{"dim", "1"}}), "dim"));
    CHECK(mentions(refusal("branin", {{"noise_stddev", "-0.1"}}), "noise_stddev"));

    const std::string wrong_length = refusal("quadratic", {{"centre", "0.5"}});
    CAPTURE(wrong_length);
    CHECK(mentions(wrong_length, "centre"));
    CHECK(mentions(wrong_length, "has 1 coordinates"));
    CHECK(mentions(wrong_length, "dim = 2"));

    const std::string outside = refusal("quadratic", {{"centre", "0.5,1.5"}});
    CAPTURE(outside);
    CHECK(mentions(outside, "centre"));
    CHECK(mentions(outside, "1.5"));

    // The default centre 0.3 is outside [1, 2]: refused rather than silently moved.
    const std::string default_outside = refusal("quadratic", {{"lower", "1"}, {"upper", "2"}});
    CAPTURE(default_outside);
    CHECK(mentions(default_outside, "centre"));
    CHECK(refusal("quadratic", {{"lower", "1"}, {"upper", "2"}, {"centre", "1.5,1.5"}}).empty());

    const std::string empty_box = refusal("quadratic", {{"lower", "1"}, {"upper", "1"}});
    CHECK(mentions(empty_box, "lower"));
    CHECK(mentions(empty_box, "upper"));
}

TEST_CASE("objectives: observation noise has the stated standard deviation") {
    constexpr double kStddev = 0.5;
    constexpr arma::uword kCount = 20000;
    // 5 standard errors: a two-sided normal tail of 5.7e-7 per check.
    constexpr double kStandardErrors = 5.0;
    const std::map<std::string, arma::rowvec> objectives{
        {"branin", {std::numbers::pi, 2.275}}, {"rosenbrock", {0.5, -0.5}}, {"quadratic", {0.1, 0.7}}};
    for (const auto& [name, point] : objectives) {
        CAPTURE(name);
        auto exact = dpbo::test::make<dpbo::Objective>(name);
        auto noisy = dpbo::test::make<dpbo::Objective>(name, {{"noise_stddev", "0.5"}});
        const arma::mat repeated = arma::repmat(arma::mat(point), kCount, 1);
        const double exact_value = value_at(*exact, point);

        dpbo::ExperimentRng rng(2024);
        const arma::vec residuals = values_at(*noisy, repeated, &rng) - exact_value;
        // Mean: standard error σ/√n. Sample std: standard error ≈ σ/√(2(n − 1)).
        const double mean_tolerance = kStandardErrors * kStddev / std::sqrt(double(kCount));
        const double std_tolerance = kStandardErrors * kStddev / std::sqrt(2.0 * (kCount - 1));
        MESSAGE(name << ": noise mean " << arma::mean(residuals) << " (tolerance " << mean_tolerance << "), std "
                     << arma::stddev(residuals) << " (tolerance " << std_tolerance << " around " << kStddev << ")");
        CHECK(std::abs(arma::mean(residuals)) <= mean_tolerance);
        CHECK(std::abs(arma::stddev(residuals) - kStddev) <= std_tolerance);

        dpbo::ExperimentRng same_seed(2024);
        CHECK(arma::approx_equal(values_at(*noisy, repeated, &same_seed) - exact_value, residuals, "absdiff", 0.0));
        // Noise without a random source is a run-time error, never silently exact.
        CHECK_THROWS_AS(values_at(*noisy, repeated), dpbo::RunError);
    }
}
