// The synthetic-gp objective, loaded through the registry: the seed fixes the function, the
// continuous form interpolates a prior sample and knows (an estimate of) its optimum, the grid form
// is an exact prior sample on its grid.
#include <cmath>
#include <cstdio>
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

std::shared_ptr<dpbo::Objective> synthetic(const Parameters& parameters) {
    return dpbo::test::make<dpbo::Objective>("synthetic-gp", parameters);
}

arma::vec values_at(dpbo::Objective& objective, const arma::mat& points) {
    return objective.evaluate(points, dpbo::EvaluationRequest{}).values;
}

// The ValidationError message of creating the objective, or "" if it was accepted.
std::string refusal(const Parameters& parameters) {
    try {
        synthetic(parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

// The ValidationError message of evaluating `points`, or "" if they were accepted.
std::string evaluation_refusal(dpbo::Objective& objective, const arma::mat& points) {
    try {
        values_at(objective, points);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

std::string six_significant_digits(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return buffer;
}

// GIBO's length-scale rule for [0,1]^d, written out independently of the plugin.
double gibo_lengthscale(double d) {
    const auto delta = [](double n) {
        return std::sqrt(n / 6.0) * std::sqrt((1.0 + 2.0 * std::sqrt(1.0 - 3.0 / (5.0 * n))) / 3.0);
    };
    return 0.2 * delta(d) / delta(2.0);
}

}  // namespace

TEST_CASE("synthetic-gp: defaults are GIBO's: maximise over [0,1]^10 with its length-scale") {
    auto objective = synthetic({});
    CHECK(objective->sense() == dpbo::Sense::Maximise);
    CHECK_FALSE(objective->space().is_finite());
    CHECK(objective->space().dim() == 10);
    CHECK(arma::approx_equal(objective->space().lower(), arma::rowvec(10, arma::fill::zeros), "absdiff", 0.0));
    CHECK(arma::approx_equal(objective->space().upper(), arma::rowvec(10, arma::fill::ones), "absdiff", 0.0));
    // The rule gives 0.468927 at d = 10 (and 0.666 at 20, 1.057 at 50).
    CHECK(gibo_lengthscale(10) == doctest::Approx(0.4689).epsilon(1e-3));
    const std::string description = dpbo::data_description(*objective);
    CAPTURE(description);
    CHECK(mentions(description, "a GP-prior sample (seed 0"));
    CHECK(mentions(description, "length-scale " + six_significant_digits(gibo_lengthscale(10))));
    CHECK(mentions(description, "1000 support points"));
}

TEST_CASE("synthetic-gp: the same seed gives the same function, another seed another one") {
    const Parameters base = {{"dim", "3"}, {"support_points", "200"}, {"support_noise_variance", "1e-6"}};
    Parameters other = base;
    other["seed"] = "4";
    Parameters same = base;
    same["seed"] = "3";
    auto first = synthetic(same);
    auto again = synthetic(same);
    auto different = synthetic(other);

    dpbo::ExperimentRng rng(99);
    const arma::mat points = rng.uniform(50, 3);
    const arma::vec first_values = values_at(*first, points);
    CHECK(arma::approx_equal(first_values, values_at(*again, points), "absdiff", 0.0));
    CHECK(dpbo::known_optimum(*first)->value == dpbo::known_optimum(*again)->value);
    CHECK(mentions(dpbo::data_description(*first), "seed 3"));
    // Independent samples of unit prior variance (support noise 1e-6: the function stays close
    // to the prior sample): at 50 uniform points of [0,1]³, on average 0.66 apart ≈ 2.6 length-scales, the
    // differences are nearly independent N(0, ≈2); all 50 below 0.1 in size has probability
    // below 0.06^10 even if only 10 of them were independent.
    CHECK(arma::abs(first_values - values_at(*different, points)).max() > 0.1);
    CHECK(dpbo::known_optimum(*first)->value != dpbo::known_optimum(*different)->value);
}

TEST_CASE("synthetic-gp: at the support points the function reproduces the prior sample") {
    // Rebuild the documented construction: from ExperimentRng(seed), uniform(n, dim) mapped to
    // the box, then normal(n, 1); the sample is L z with L L^T = σ_f² exp(−‖x − x'‖²/(2ℓ²)).
    const arma::uword n = 100;
    const arma::uword dim = 4;
    const double lower = -1.0;
    const double upper = 2.0;
    const double lengthscale = 0.6;
    const double signal_variance = 2.0;
    const double noise_variance = 1e-10;
    auto objective = synthetic({{"dim", "4"},
                                {"support_points", "100"},
                                {"lower", "-1"},
                                {"upper", "2"},
                                {"lengthscale", "0.6"},
                                {"signal_variance", "2"},
                                {"support_noise_variance", "1e-10"},
                                {"seed", "7"}});
    dpbo::ExperimentRng rng(7);
    const arma::mat support = lower + (upper - lower) * rng.uniform(n, dim);
    const arma::vec z = rng.normal(n, 1);
    arma::mat covariance(n, n);
    for (arma::uword i = 0; i < n; ++i) {
        for (arma::uword j = 0; j < n; ++j) {
            const double squared = arma::accu(arma::square(support.row(i) - support.row(j)));
            covariance(i, j) = signal_variance * std::exp(-squared / (2.0 * lengthscale * lengthscale));
        }
    }
    // Well conditioned, so the plugin needed no jitter either and both factors agree to rounding.
    const double condition = arma::cond(covariance);
    CAPTURE(condition);
    REQUIRE(condition <= 1e6);
    arma::mat factor;
    REQUIRE(arma::chol(factor, covariance, "lower"));
    const arma::vec sample = factor * z;

    // The posterior mean misses the sample by σ²(K + σ²I)⁻¹ L z; per eigenvalue λ of K that is
    // σ²√λ/(λ + σ²) ≤ σ/2 times the component of z, so ‖residual‖₂ ≤ (σ/2)‖z‖₂. Rounding adds at
    // most cond(K)·1e-15·‖sample‖ ≤ 1e-9·‖sample‖₂.
    const arma::vec residual = values_at(*objective, support) - sample;
    const double bound = 0.5 * std::sqrt(noise_variance) * arma::norm(z) + 1e-9 * arma::norm(sample);
    CAPTURE(bound);
    CHECK(arma::norm(residual) <= bound);
    // And it is a real sample, not a trivial one: its spread is of order σ_f.
    CHECK(arma::stddev(sample) > 0.5);
}

TEST_CASE("synthetic-gp: the known optimum beats 10 000 random points and regret is >= 0") {
    for (const std::string sense : {"maximise", "minimise"}) {
        CAPTURE(sense);
        auto objective = synthetic({{"dim", "5"}, {"seed", "11"}, {"sense", sense}});
        const auto optimum = dpbo::known_optimum(*objective);
        REQUIRE(optimum.has_value());
        REQUIRE(optimum->points.n_rows == 1);
        objective->space().check_contains(optimum->points, "synthetic-gp optimum");
        CHECK(std::abs(values_at(*objective, optimum->points)(0) - optimum->value) <= 1e-12);

        dpbo::ExperimentRng rng(2024);
        const arma::vec values = values_at(*objective, rng.uniform(10000, 5));
        if (sense == "maximise") {
            CHECK(values.max() <= optimum->value);
        } else {
            CHECK(values.min() >= optimum->value);
        }
        const double sign = sense == "maximise" ? 1.0 : -1.0;
        for (const double value : {values.min(), values.max(), arma::median(values)}) {
            const auto regret = objective->regret(value);
            REQUIRE(regret.has_value());
            CHECK(*regret >= 0.0);
            CHECK(*regret == doctest::Approx(sign * (optimum->value - value)).epsilon(1e-12));
        }
        CHECK(*objective->regret(optimum->value) == 0.0);
    }
}

TEST_CASE("synthetic-gp: the known optimum is a stationary point or pushes against the box") {
    auto objective = synthetic({{"dim", "5"}, {"seed", "11"}});
    const arma::rowvec best = dpbo::known_optimum(*objective)->points.row(0);
    // Central differences: with h = 1e-6 the truncation error h²·f'''/6 (f''' ~ σ_f/ℓ³ ≈ 40) is
    // 1e-11 and rounding 1e-16/h = 1e-10, so 1e-4 is far above both and far below the typical
    // slope σ_f/ℓ ≈ 3.
    const double h = 1e-6;
    for (arma::uword j = 0; j < 5; ++j) {
        CAPTURE(j);
        arma::mat pair = arma::repmat(best, 2, 1);
        pair(0, j) += h;
        pair(1, j) -= h;
        const arma::vec values = values_at(*objective, pair);
        const double slope = (values(0) - values(1)) / (2.0 * h);
        CAPTURE(slope);
        if (best(j) >= 1.0 - 1e-9) {
            CHECK(slope >= -1e-4);  // at the upper face a maximum may only rise outward
        } else if (best(j) <= 1e-9) {
            CHECK(slope <= 1e-4);
        } else {
            CHECK(std::abs(slope) <= 1e-4);
        }
    }
}

TEST_CASE("synthetic-gp: the grid sample has the prior's variance and correlations") {
    // m seeds of a 21×21 grid on [0,1]² (step 0.05), ℓ = 0.25, σ_f² = 1.5. At a fixed point the
    // values are m independent N(0, σ_f²) draws: the sample variance has relative standard error
    // √(2/(m−1)) = 0.0224 and the mean standard error √(σ_f²/m) = 0.0194. A sample correlation r
    // of m pairs has atanh(r) ≈ N(atanh ρ, 1/(m−3)), standard error 0.0158. Each check allows
    // k = 4 standard errors: two-sided false-failure probability 6.3e-5 each, ≤ 4e-4 for all six.
    const int m = 4000;
    const double k = 4.0;
    const double signal_variance = 1.5;
    const double lengthscale = 0.25;
    // p; q at distance 0.3 along x0; s at (0.15, 0.2) from p, distance 0.25.
    const arma::mat points = {{0.25, 0.5}, {0.55, 0.5}, {0.40, 0.70}};
    arma::mat values(m, 3);
    for (int seed = 0; seed < m; ++seed) {
        auto objective = synthetic({{"dim", "2"},
                                    {"grid", "21"},
                                    {"lengthscale", "0.25"},
                                    {"signal_variance", "1.5"},
                                    {"seed", std::to_string(seed)}});
        values.row(seed) = values_at(*objective, points).t();
    }
    const double variance_tolerance = k * std::sqrt(2.0 / (m - 1)) * signal_variance;
    for (arma::uword i = 0; i < 2; ++i) {
        CAPTURE(i);
        CHECK(std::abs(arma::var(values.col(i)) - signal_variance) <= variance_tolerance);
        CHECK(std::abs(arma::mean(values.col(i))) <= k * std::sqrt(signal_variance / m));
    }
    const auto correlation = [&](arma::uword a, arma::uword b) {
        return arma::as_scalar(arma::cor(values.col(a), values.col(b)));
    };
    const auto expected = [&](double squared_distance) {
        return std::exp(-squared_distance / (2.0 * lengthscale * lengthscale));
    };
    const double fisher_tolerance = k / std::sqrt(m - 3.0);
    CHECK(std::abs(std::atanh(correlation(0, 1)) - std::atanh(expected(0.09))) <= fisher_tolerance);
    CHECK(std::abs(std::atanh(correlation(0, 2)) - std::atanh(expected(0.0625))) <= fisher_tolerance);
}

TEST_CASE("synthetic-gp: the grid is the search space and its optimum is exact") {
    for (const std::string sense : {"maximise", "minimise"}) {
        CAPTURE(sense);
        auto objective = synthetic({{"dim", "2"},
                                    {"grid", "15"},
                                    {"lower", "-2"},
                                    {"upper", "5"},
                                    {"lengthscale", "1.25"},
                                    {"seed", "9"},
                                    {"sense", sense}});
        const dpbo::SearchSpace& space = objective->space();
        REQUIRE(space.is_finite());
        const arma::mat& rows = space.candidate_rows();
        REQUIRE(rows.n_rows == 225);
        REQUIRE(rows.n_cols == 2);
        CHECK(rows.min() == -2.0);
        CHECK(rows.max() == 5.0);
        const dpbo::Evaluations evaluations = objective->evaluate(rows, dpbo::EvaluationRequest{});
        REQUIRE(evaluations.candidate_rows.n_elem == 225);
        CHECK(arma::all(evaluations.candidate_rows == arma::regspace<arma::uvec>(0, 224)));
        const auto optimum = dpbo::known_optimum(*objective);
        REQUIRE(optimum.has_value());
        const double extreme = sense == "maximise" ? evaluations.values.max() : evaluations.values.min();
        CHECK(optimum->value == extreme);
        REQUIRE(optimum->points.n_rows == 1);
        CHECK(values_at(*objective, optimum->points)(0) == optimum->value);
        for (const double value : {evaluations.values.min(), evaluations.values.max()}) {
            CHECK(*objective->regret(value) >= 0.0);
        }
        CHECK(mentions(dpbo::data_description(*objective), "exact on the 15^2 grid"));
    }
}

TEST_CASE("synthetic-gp: points off the grid are refused") {
    auto objective = synthetic({{"dim", "2"}, {"grid", "21"}});
    const std::string between = evaluation_refusal(*objective, arma::mat{{0.51, 0.5}});
    CHECK(mentions(between, "synthetic-gp"));
    CHECK(mentions(between, "x0"));
    CHECK(mentions(between, "0.51"));
    CHECK(mentions(evaluation_refusal(*objective, arma::mat{{0.5, 1.05}}), "x1"));
    CHECK(mentions(evaluation_refusal(*objective, arma::mat{{0.5, -0.05}}), "x1"));
    CHECK(mentions(evaluation_refusal(*objective, arma::mat{{arma::datum::nan, 0.5}}), "x0"));
    CHECK(evaluation_refusal(*objective, arma::mat{{0.5, 0.55}, {1.0, 0.0}}).empty());
}

TEST_CASE("synthetic-gp: invalid settings are refused naming the keys") {
    const std::string too_many = refusal({{"dim", "4"}, {"grid", "100"}});
    CHECK(mentions(too_many, "synthetic-gp"));
    CHECK(mentions(too_many, "grid = 100"));
    CHECK(mentions(too_many, "dim = 4"));
    CHECK(mentions(refusal({{"dim", "22"}, {"grid", "2"}}), "grid = 2"));  // 4 194 304 points
    CHECK(mentions(refusal({{"dim", "2"}, {"grid", "1"}}), "grid = 1"));
    const std::string support_on_grid = refusal({{"dim", "2"}, {"grid", "10"}, {"support_points", "50"}});
    CHECK(mentions(support_on_grid, "support_points"));
    CHECK(mentions(support_on_grid, "grid = 10"));
    const std::string empty_box = refusal({{"lower", "1"}, {"upper", "1"}});
    CHECK(mentions(empty_box, "lower"));
    CHECK(mentions(empty_box, "upper"));
    CHECK(mentions(refusal({{"lengthscale", "0"}}), "lengthscale"));
    CHECK(mentions(refusal({{"lengthscale_spread", "1"}}), "lengthscale_spread"));
    CHECK(mentions(refusal({{"seed", "-1"}}), "seed"));
    CHECK(mentions(refusal({{"sense", "maximize"}}), "sense"));
}
