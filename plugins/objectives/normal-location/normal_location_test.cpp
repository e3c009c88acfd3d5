// Objective 'normal-location' (DP-GIBO's location of the Normal model), loaded through the registry.
#include <cmath>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Objective> make_normal(const Parameters& parameters = {}) {
    return dpbo::test::make<dpbo::Objective>("normal-location", parameters);
}

using dpbo::test::evaluate;

// The records as the module documents their draw: ExperimentRng(data_seed).normal(n, d) + true_mean.
arma::mat documented_records(std::uint64_t seed, std::size_t n, std::size_t d, double true_mean) {
    dpbo::ExperimentRng rng(seed);
    return rng.normal(n, d) + true_mean;
}

std::string refusal(const Parameters& parameters) {
    try {
        make_normal(parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("normal-location: defaults are the paper's (d = 5, n = 50, box [-5, 5]^5 centred at 0)") {
    auto objective = make_normal();
    CHECK(objective->space().dim() == 5);
    CHECK(dpbo::record_count(*objective) == 50);
    CHECK((dpbo::capability<dpbo::RecordGradients>(*objective) != nullptr));
    CHECK(arma::approx_equal(objective->space().lower(), arma::rowvec(5, arma::fill::value(-5.0)), "absdiff", 0.0));
    CHECK(arma::approx_equal(objective->space().upper(), arma::rowvec(5, arma::fill::value(5.0)), "absdiff", 0.0));
    CHECK(arma::norm(objective->space().centre()) == 0.0);
    const std::string description = dpbo::data_description(*objective);
    CAPTURE(description);
    CHECK(mentions(description, "50 records"));
    CHECK(mentions(description, "I_5"));
    CHECK(mentions(description, "data_seed 0"));
}

TEST_CASE(
    "normal-location: per-record losses are 1/2 |x_i - theta|^2 of the documented records and average to "
    "the values") {
    const std::size_t n = 30;
    const std::size_t d = 3;
    auto objective = make_normal({{"dim", "3"}, {"records", "30"}, {"true_mean", "0.5"}, {"data_seed", "7"}});
    const arma::mat records = documented_records(7, n, d, 0.5);
    dpbo::ExperimentRng rng(11);
    const arma::mat points = 4.0 * rng.uniform(6, d) - 2.0;
    const dpbo::Evaluations with_records = evaluate(*objective, points, true);
    REQUIRE(with_records.per_record.n_rows == 6);
    REQUIRE(with_records.per_record.n_cols == n);
    for (arma::uword b = 0; b < points.n_rows; ++b) {
        for (arma::uword i = 0; i < n; ++i) {
            const double expected = 0.5 * arma::accu(arma::square(records.row(i) - points.row(b)));
            CHECK(std::abs(with_records.per_record(b, i) - expected) <= 1e-12 * (1.0 + expected));
        }
        const double mean = arma::mean(with_records.per_record.row(b));
        CHECK(std::abs(with_records.values(b) - mean) <= 1e-12 * (1.0 + mean));
    }
    // The values do not depend on whether per-record losses were asked for.
    const dpbo::Evaluations values_only = evaluate(*objective, points, false);
    CHECK(values_only.per_record.is_empty());
    CHECK(arma::approx_equal(values_only.values, with_records.values, "absdiff", 0.0));
}

TEST_CASE("normal-location: per-record gradients match central differences of the per-record losses") {
    auto objective = make_normal({{"dim", "4"}, {"records", "20"}, {"data_seed", "3"}});
    const arma::rowvec theta = {0.3, -1.2, 2.0, 0.7};
    const arma::mat gradients = dpbo::test::record_gradients(*objective, theta);
    REQUIRE(gradients.n_rows == 20);
    REQUIRE(gradients.n_cols == 4);
    // The loss is quadratic, so central differences are exact up to rounding (≈ 1e-16·|L|/h).
    const double h = 1e-4;
    arma::mat shifted(8, 4);
    for (arma::uword j = 0; j < 4; ++j) {
        shifted.row(2 * j) = theta;
        shifted.row(2 * j + 1) = theta;
        shifted(2 * j, j) += h;
        shifted(2 * j + 1, j) -= h;
    }
    const arma::mat losses = evaluate(*objective, shifted, true).per_record;
    for (arma::uword j = 0; j < 4; ++j) {
        const arma::rowvec difference = (losses.row(2 * j) - losses.row(2 * j + 1)) / (2.0 * h);
        CAPTURE(j);
        CHECK(arma::abs(difference - gradients.col(j).t()).max() <= 1e-8);
    }
}

TEST_CASE("normal-location: the known optimum is the MLE (the records' mean), with zero mean gradient") {
    const std::size_t n = 50;
    const std::size_t d = 5;
    auto objective = make_normal();
    const auto optimum = dpbo::known_optimum(*objective);
    REQUIRE(optimum.has_value());
    REQUIRE(optimum->points.n_rows == 1);
    REQUIRE(optimum->points.n_cols == d);
    const arma::rowvec mle = optimum->points.row(0);
    const arma::mat records = documented_records(0, n, d, 1.0);
    CHECK(arma::abs(mle - arma::mean(records, 0)).max() <= 1e-14);
    CHECK(arma::norm(arma::mean(dpbo::test::record_gradients(*objective, mle), 0)) <= 1e-8);
    const dpbo::Evaluations at_mle = evaluate(*objective, arma::mat(mle), false);
    CHECK(std::abs(at_mle.values(0) - optimum->value) <= 1e-12);
    // f(θ) = f(x̄) + ½‖θ − x̄‖²: every other point is worse by exactly that much.
    dpbo::ExperimentRng rng(5);
    const arma::mat others = arma::repmat(arma::mat(mle), 10, 1) + 0.1 * rng.normal(10, d);
    const arma::vec values = evaluate(*objective, others, false).values;
    for (arma::uword k = 0; k < others.n_rows; ++k) {
        const double excess = 0.5 * arma::accu(arma::square(others.row(k) - mle));
        CHECK(std::abs(values(k) - optimum->value - excess) <= 1e-12);
    }
}

TEST_CASE("normal-location: the records are N(true_mean, 1) draws") {
    // 250 000 entries: sample mean within 5 standard errors (1/√N) of true_mean, and the sample
    // variance within 5 of its standard errors (√(2/N), the chi-square's) of 1. With the seed fixed
    // the test is deterministic; 5 SE makes it a real check of the distribution, not of one draw.
    const std::size_t n = 50000;
    const std::size_t d = 5;
    auto objective = make_normal({{"records", std::to_string(n)}, {"true_mean", "-0.75"}, {"data_seed", "12"}});
    // At θ = 0 the gradients are −x_i: the records themselves, through the public interface.
    const arma::mat records = -dpbo::test::record_gradients(*objective, arma::rowvec(d, arma::fill::zeros));
    const double count = static_cast<double>(records.n_elem);
    const double mean = arma::accu(records) / count;
    const double variance = arma::accu(arma::square(records - mean)) / (count - 1.0);
    CHECK(std::abs(mean + 0.75) <= 5.0 / std::sqrt(count));
    CHECK(std::abs(variance - 1.0) <= 5.0 * std::sqrt(2.0 / count));
}

TEST_CASE("normal-location: the same data_seed gives the same records, another seed other records") {
    const arma::rowvec origin(5, arma::fill::zeros);
    const arma::mat first = dpbo::test::record_gradients(*make_normal({{"data_seed", "4"}}), origin);
    const arma::mat again = dpbo::test::record_gradients(*make_normal({{"data_seed", "4"}}), origin);
    const arma::mat other = dpbo::test::record_gradients(*make_normal({{"data_seed", "5"}}), origin);
    CHECK(arma::approx_equal(first, again, "absdiff", 0.0));
    CHECK(arma::abs(first - other).min() > 0.0);
}

TEST_CASE("normal-location: observation noise perturbs the values only, never the per-record losses") {
    auto exact = make_normal();
    auto noisy = make_normal({{"noise_stddev", "0.5"}});
    const arma::mat points = {{0.0, 0.0, 0.0, 0.0, 0.0}, {1.0, 1.0, 1.0, 1.0, 1.0}};
    dpbo::ExperimentRng rng(2);
    const dpbo::Evaluations clean = evaluate(*exact, points, true);
    const dpbo::Evaluations observed = dpbo::test::evaluate_as_run(*noisy, points, true, &rng);
    CHECK(arma::approx_equal(observed.per_record, clean.per_record, "absdiff", 0.0));
    CHECK(arma::abs(observed.values - clean.values).min() > 0.0);
    // The noise is exactly the documented experiment generator's N(0, 0.5²) draws.
    dpbo::ExperimentRng replay(2);
    const arma::vec draws = 0.5 * replay.normal(2, 1);
    CHECK(arma::abs(observed.values - clean.values - draws).max() <= 1e-12);
    CHECK_THROWS_AS(dpbo::test::evaluate_as_run(*noisy, points, false), dpbo::RunError);
}

TEST_CASE("normal-location: bad parameters are refused naming the key") {
    CHECK(mentions(refusal({{"dim", "0"}}), "dim"));
    CHECK(mentions(refusal({{"records", "0"}}), "records"));
    CHECK(mentions(refusal({{"bound", "0"}}), "bound"));
    CHECK(mentions(refusal({{"bound", "-1"}}), "bound"));
    CHECK(mentions(refusal({{"data_seed", "-1"}}), "data_seed"));
    CHECK(mentions(refusal({{"noise_stddev", "-0.1"}}), "noise_stddev"));
    CHECK(mentions(refusal({{"true_mean", "abc"}}), "true_mean"));
    // The MLE must lie in the box, or the known optimum would be unreachable.
    const std::string outside = refusal({{"true_mean", "6"}});
    CAPTURE(outside);
    CHECK(mentions(outside, "normal-location"));
    CHECK(mentions(outside, "bound = 5"));
    CHECK(refusal({{"true_mean", "6"}, {"bound", "10"}}).empty());
}

TEST_CASE("normal-location: points of the wrong dimension are a run error naming the module") {
    auto objective = make_normal();
    try {
        evaluate(*objective, arma::mat(1, 3, arma::fill::zeros), false);
        FAIL("accepted points with 3 coordinates");
    } catch (const dpbo::RunError& error) {
        CHECK(mentions(error.what(), "normal-location"));
    }
    CHECK_THROWS_AS(dpbo::test::record_gradients(*objective, arma::rowvec(4, arma::fill::zeros)), dpbo::RunError);
}
