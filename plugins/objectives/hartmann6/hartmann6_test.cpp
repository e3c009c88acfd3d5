// The hartmann6 objective, loaded through the registry.
#include <cmath>

#include <doctest/doctest.h>

#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

arma::vec hartmann_values(dpbo::Objective& objective, const arma::mat& points) {
    return objective.evaluate(points, dpbo::EvaluationRequest{}).values;
}

double hartmann_value(dpbo::Objective& objective, const arma::rowvec& point) {
    return hartmann_values(objective, arma::mat(point))(0);
}

}  // namespace

TEST_CASE("hartmann6: the published minimisers give the published minimum") {
    auto hartmann = dpbo::test::make<dpbo::Objective>("hartmann6");
    CHECK(hartmann->sense() == dpbo::Sense::Minimise);
    CHECK(hartmann->space().dim() == 6);
    CHECK(arma::approx_equal(hartmann->space().lower(), arma::rowvec(6, arma::fill::zeros), "absdiff", 0.0));
    CHECK(arma::approx_equal(hartmann->space().upper(), arma::rowvec(6, arma::fill::ones), "absdiff", 0.0));

    const auto optimum = dpbo::known_optimum(*hartmann);
    REQUIRE(optimum.has_value());
    REQUIRE(optimum->points.n_rows == 1);
    // The reported optimiser reproduces the reported value to rounding.
    CHECK(std::abs(hartmann_value(*hartmann, optimum->points.row(0)) - optimum->value) <= 1e-13);
    // The value STK's documentation gives for the refined (8-digit) minimiser.
    CHECK(std::abs(optimum->value - (-3.322368011415512)) <= 1e-13);
    // The usual 6-digit minimiser gives the usual −3.32237 (to its printed 5 decimals) and
    // STK's −3.322368011391339 for it to rounding.
    const arma::rowvec printed = {0.20169, 0.150011, 0.476874, 0.275332, 0.311652, 0.6573};
    CHECK(std::abs(hartmann_value(*hartmann, printed) - (-3.32237)) <= 5e-6);
    CHECK(std::abs(hartmann_value(*hartmann, printed) - (-3.322368011391339)) <= 1e-13);
}

TEST_CASE("hartmann6: the reported minimiser is a local minimum") {
    auto hartmann = dpbo::test::make<dpbo::Objective>("hartmann6");
    const arma::rowvec minimiser = dpbo::known_optimum(*hartmann)->points.row(0);
    const double minimum = dpbo::known_optimum(*hartmann)->value;
    // Every step of h = 1e-4 along ± each axis climbs. Near the minimum well 3 dominates (α = 3,
    // widths ≥ 1.7), so the axial second derivatives are about 2·1.7·3 ≈ 10 or more and a step
    // raises f by ≈ 5·h² = 5e-8: far above rounding (1e-15) and above the h·|∇f| ≲ 1e-4·1e-6
    // that the published optimiser's 8-digit rounding could leave.
    arma::mat neighbours = arma::repmat(minimiser, 12, 1);
    for (arma::uword j = 0; j < 6; ++j) {
        neighbours(2 * j, j) += 1e-4;
        neighbours(2 * j + 1, j) -= 1e-4;
    }
    const arma::vec values = hartmann_values(*hartmann, neighbours);
    for (arma::uword i = 0; i < values.n_elem; ++i) {
        CAPTURE(i);
        CHECK(values(i) > minimum);
    }
}

TEST_CASE("hartmann6: hand-checked values away from the minimum") {
    auto hartmann = dpbo::test::make<dpbo::Objective>("hartmann6");
    // At 0 well i contributes α_i exp(−Σ_j A_ij P_ij²). The inner sums from the tabulated A and P,
    // e.g. well 3: 3·0.2348² + 3.5·0.1451² + 1.7·0.3522² + 10·0.2883² + 17·0.3047² + 8·0.6650²
    // = 6.397242813; the third well dominates.
    const double at_zero = -(1.0 * std::exp(-9.469241603) + 1.2 * std::exp(-27.5130072665) +
                             3.0 * std::exp(-6.397242813) + 3.2 * std::exp(-12.376823883));
    CHECK(hartmann_value(*hartmann, arma::rowvec(6, arma::fill::zeros)) == doctest::Approx(at_zero).epsilon(1e-13));
    CHECK(at_zero == doctest::Approx(-0.00508911288366444).epsilon(1e-13));
    // At the centre of well 4 that well gives −3.2 exactly and the others add −0.0028
    // (−3.2027920073956704, computed independently in double precision).
    const arma::rowvec centre_of_well_4 = {0.4047, 0.8828, 0.8732, 0.5743, 0.1091, 0.0381};
    CHECK(hartmann_value(*hartmann, centre_of_well_4) == doctest::Approx(-3.2027920073956704).epsilon(1e-13));
    CHECK(hartmann_value(*hartmann, arma::rowvec(6, arma::fill::value(0.5))) ==
          doctest::Approx(-0.5053149917022333).epsilon(1e-13));
}

TEST_CASE("hartmann6: a batch equals the points one at a time") {
    auto hartmann = dpbo::test::make<dpbo::Objective>("hartmann6");
    dpbo::ExperimentRng rng(20240611);
    const arma::mat points = rng.uniform(64, 6);
    const arma::vec batch = hartmann_values(*hartmann, points);
    REQUIRE(batch.n_elem == 64);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        CAPTURE(i);
        CHECK(batch(i) == hartmann_value(*hartmann, points.row(i)));
        CHECK(batch(i) < 0.0);
        CHECK(batch(i) >= dpbo::known_optimum(*hartmann)->value);
    }
}

TEST_CASE("hartmann6: observation noise has the requested spread and needs a generator") {
    auto noisy = dpbo::test::make<dpbo::Objective>("hartmann6", {{"noise_stddev", "0.5"}});
    const arma::mat points = arma::repmat(arma::rowvec(6, arma::fill::value(0.5)), 4000, 1);
    CHECK_THROWS_AS(dpbo::test::evaluate_as_run(*noisy, points, false), dpbo::RunError);
    dpbo::ExperimentRng rng(7);
    const arma::vec noise = dpbo::test::evaluate_as_run(*noisy, points, false, &rng).values - (-0.5053149917022333);
    // m = 4000 draws: the sample standard deviation has relative standard error ≈ 1/√(2(m−1))
    // = 0.0112; 4 standard errors (two-sided false-failure probability 6e-5) allow ±0.0224 on 0.5.
    // The mean has standard error 0.5/√m = 0.0079; 4 of them allow ±0.032.
    CHECK(std::abs(arma::stddev(noise) - 0.5) <= 4 * 0.5 * 0.0112);
    CHECK(std::abs(arma::mean(noise)) <= 4 * 0.5 / std::sqrt(4000.0));
}
