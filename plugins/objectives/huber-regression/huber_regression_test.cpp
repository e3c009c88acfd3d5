// Objective 'huber-regression' (DP-GIBO's robust linear regression), loaded through the registry and
// checked against an independent scalar reference built from the module's documented data draw.
#include <algorithm>
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

std::shared_ptr<dpbo::Objective> make_huber(const Parameters& parameters = {}) {
    return dpbo::test::make<dpbo::Objective>("huber-regression", parameters);
}

using dpbo::test::evaluate;

// The records as documented: ExperimentRng(data_seed): normal(n, d) covariates, then normal(n, 1)
// errors; y = X·(true_value·1) + e; w_i = min(1, 2/‖x_i‖²).
struct Records {
    arma::mat x;
    arma::vec y;
    arma::vec w;
};

Records documented_records(std::uint64_t seed, std::size_t n, std::size_t d, double true_value) {
    dpbo::ExperimentRng rng(seed);
    Records r;
    r.x = rng.normal(n, d);
    const arma::vec e = rng.normal(n, 1);
    r.y = r.x * arma::vec(d, arma::fill::value(true_value)) + e;
    r.w.set_size(n);
    for (arma::uword i = 0; i < n; ++i) r.w(i) = std::min(1.0, 2.0 / arma::dot(r.x.row(i), r.x.row(i)));
    return r;
}

double huber(double r, double c) { return std::abs(r) <= c ? 0.5 * r * r : c * std::abs(r) - 0.5 * c * c; }

// Iteratively reweighted least squares, independent of the module's Newton solver: the minimiser
// solves Xᵀ diag(w ψ(r)/r) (y − Xθ) = 0.
arma::vec irls_minimiser(const Records& r, double c) {
    arma::vec theta = arma::solve(r.x.t() * (r.x.each_col() % r.w), r.x.t() * (r.w % r.y));
    for (int step = 0; step < 500; ++step) {
        const arma::vec residuals = r.y - r.x * theta;
        arma::vec v = r.w;
        for (arma::uword i = 0; i < v.n_elem; ++i)
            if (std::abs(residuals(i)) > c) v(i) *= c / std::abs(residuals(i));
        const arma::vec next = arma::solve(r.x.t() * (r.x.each_col() % v), r.x.t() * (v % r.y));
        const double change = arma::norm(next - theta);
        theta = next;
        if (change < 1e-14) break;
    }
    return theta;
}

std::string refusal(const Parameters& parameters) {
    try {
        make_huber(parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

arma::rowvec mean_gradient(const dpbo::Objective& objective, const arma::rowvec& theta) {
    return arma::mean(dpbo::test::record_gradients(objective, theta), 0);
}

}  // namespace

TEST_CASE("huber-regression: defaults are the paper's (d = 4, n = 100, c = 1, theta* = 1, box [-5, 5]^4)") {
    auto objective = make_huber();
    CHECK(objective->space().dim() == 4);
    CHECK(dpbo::record_count(*objective) == 100);
    CHECK((dpbo::capability<dpbo::RecordGradients>(*objective) != nullptr));
    CHECK(arma::approx_equal(objective->space().lower(), arma::rowvec(4, arma::fill::value(-5.0)), "absdiff", 0.0));
    CHECK(arma::approx_equal(objective->space().upper(), arma::rowvec(4, arma::fill::value(5.0)), "absdiff", 0.0));
    const std::string description = dpbo::data_description(*objective);
    CAPTURE(description);
    CHECK(mentions(description, "100 records"));
    CHECK(mentions(description, "θ* = 1·1"));
    CHECK(mentions(description, "data_seed 0"));
    CHECK(mentions(description, "Huber c = 1"));
}

TEST_CASE("huber-regression: per-record losses match the scalar definition and average to the values") {
    const std::size_t n = 40;
    const std::size_t d = 3;
    const double c = 0.7;
    auto objective =
        make_huber({{"dim", "3"}, {"records", "40"}, {"huber_c", "0.7"}, {"true_value", "-0.5"}, {"data_seed", "9"}});
    const Records records = documented_records(9, n, d, -0.5);
    dpbo::ExperimentRng rng(4);
    const arma::mat points = 4.0 * rng.uniform(5, d) - 2.0;
    const dpbo::Evaluations result = evaluate(*objective, points, true);
    REQUIRE(result.per_record.n_rows == 5);
    REQUIRE(result.per_record.n_cols == n);
    std::size_t quadratic = 0;
    std::size_t linear = 0;
    for (arma::uword b = 0; b < points.n_rows; ++b) {
        for (arma::uword i = 0; i < n; ++i) {
            const double r = records.y(i) - arma::dot(records.x.row(i), points.row(b));
            (std::abs(r) <= c ? quadratic : linear) += 1;
            const double expected = huber(r, c) * records.w(i);
            CHECK(std::abs(result.per_record(b, i) - expected) <= 1e-12 * (1.0 + expected));
        }
        const double mean = arma::mean(result.per_record.row(b));
        CHECK(std::abs(result.values(b) - mean) <= 1e-13 * (1.0 + mean));
    }
    // Both branches of ρ_c were exercised.
    CHECK(quadratic > 10);
    CHECK(linear > 10);
    const dpbo::Evaluations values_only = evaluate(*objective, points, false);
    CHECK(values_only.per_record.is_empty());
    CHECK(arma::approx_equal(values_only.values, result.values, "absdiff", 0.0));
}

TEST_CASE("huber-regression: per-record gradients match central differences of the per-record losses") {
    auto objective = make_huber({{"records", "60"}, {"data_seed", "2"}});
    dpbo::ExperimentRng rng(8);
    // ρ_c is C¹ and w_i x_ij² ≤ w_i‖x_i‖² ≤ 2 bounds the curvature along a coordinate, so a central
    // difference with step h errs by at most h (plus rounding ≈ 1e-16·|L|/h).
    const double h = 1e-6;
    const double tolerance = h + 1e-8;
    for (int trial = 0; trial < 4; ++trial) {
        const arma::rowvec theta = 3.0 * rng.uniform(1, 4) - 1.0;
        const arma::mat gradients = dpbo::test::record_gradients(*objective, theta);
        REQUIRE(gradients.n_rows == 60);
        REQUIRE(gradients.n_cols == 4);
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
            CAPTURE(trial);
            CAPTURE(j);
            CHECK(arma::abs(difference - gradients.col(j).t()).max() <= tolerance);
        }
    }
}

TEST_CASE(
    "huber-regression: every per-record gradient is at most c*sqrt(2) in norm (the paper's bounded "
    "sensitivity)") {
    for (const char* c : {"0.5", "1", "3"}) {
        auto objective = make_huber({{"huber_c", c}, {"records", "500"}, {"data_seed", "1"}});
        dpbo::ExperimentRng rng(3);
        const arma::mat thetas = 10.0 * rng.uniform(20, 4) - 5.0;
        double largest = 0.0;
        for (arma::uword k = 0; k < thetas.n_rows; ++k) {
            const arma::mat gradients = dpbo::test::record_gradients(*objective, thetas.row(k));
            largest = std::max(largest, arma::max(arma::sqrt(arma::sum(arma::square(gradients), 1))));
        }
        CAPTURE(c);
        CHECK(largest <= std::stod(c) * std::sqrt(2.0) * (1.0 + 1e-12));
        // Not vacuous: the bound is approached (records with ‖x‖ ≈ √2 and large residuals exist).
        CHECK(largest >= 0.9 * std::stod(c) * std::sqrt(2.0));
    }
}

TEST_CASE("huber-regression: the known optimum is the empirical minimiser, found independently by IRLS") {
    auto objective = make_huber();
    const auto optimum = dpbo::known_optimum(*objective);
    REQUIRE(optimum.has_value());
    REQUIRE(optimum->points.n_rows == 1);
    REQUIRE(optimum->points.n_cols == 4);
    const arma::rowvec minimiser = optimum->points.row(0);
    CHECK(arma::norm(mean_gradient(*objective, minimiser)) <= 1e-8);
    const arma::vec reference = irls_minimiser(documented_records(0, 100, 4, 1.0), 1.0);
    CHECK(arma::norm(minimiser - reference.t()) <= 1e-8);
    CHECK(std::abs(evaluate(*objective, arma::mat(minimiser), false).values(0) - optimum->value) <= 1e-14);
    dpbo::ExperimentRng rng(6);
    const arma::mat nearby = arma::repmat(arma::mat(minimiser), 20, 1) + 1e-3 * rng.normal(20, 4);
    CHECK(evaluate(*objective, nearby, false).values.min() > optimum->value);
    // A sanity bound on the estimate: n = 100 noisy records put it near θ* = 1 (not a precision claim).
    CHECK(arma::abs(minimiser - 1.0).max() < 0.5);
}

TEST_CASE("huber-regression: with a huge c the optimum is the weighted least-squares solution") {
    auto objective = make_huber({{"huber_c", "1e6"}, {"data_seed", "5"}});
    const Records r = documented_records(5, 100, 4, 1.0);
    const arma::vec wls = arma::solve(r.x.t() * (r.x.each_col() % r.w), r.x.t() * (r.w % r.y));
    const auto optimum = dpbo::known_optimum(*objective);
    REQUIRE(optimum.has_value());
    CHECK(arma::norm(optimum->points.row(0) - wls.t()) <= 1e-9);
}

TEST_CASE("huber-regression: the minimiser is found for many data sets and thresholds") {
    for (int seed = 0; seed < 10; ++seed) {
        for (const char* c : {"0.1", "1", "10"}) {
            CAPTURE(seed);
            CAPTURE(c);
            std::shared_ptr<dpbo::Objective> objective;
            REQUIRE_NOTHROW(objective = make_huber({{"data_seed", std::to_string(seed)}, {"huber_c", c}}));
            const arma::rowvec minimiser = dpbo::known_optimum(*objective)->points.row(0);
            CHECK(arma::norm(mean_gradient(*objective, minimiser)) <= 1e-8);
        }
    }
}

TEST_CASE("huber-regression: the same data_seed gives the same records, another seed other records") {
    const arma::rowvec theta = {0.5, -0.5, 0.25, 2.0};
    const arma::mat first = dpbo::test::record_gradients(*make_huber({{"data_seed", "4"}}), theta);
    const arma::mat again = dpbo::test::record_gradients(*make_huber({{"data_seed", "4"}}), theta);
    const arma::mat other = dpbo::test::record_gradients(*make_huber({{"data_seed", "5"}}), theta);
    CHECK(arma::approx_equal(first, again, "absdiff", 0.0));
    CHECK(arma::norm(first - other) > 1.0);
}

TEST_CASE("huber-regression: observation noise perturbs the values only, never the per-record losses") {
    auto exact = make_huber();
    auto noisy = make_huber({{"noise_stddev", "0.2"}});
    const arma::mat points = {{0.0, 0.0, 0.0, 0.0}, {1.0, 1.0, 1.0, 1.0}};
    dpbo::ExperimentRng rng(2);
    const dpbo::Evaluations clean = evaluate(*exact, points, true);
    const dpbo::Evaluations observed = dpbo::test::evaluate_as_run(*noisy, points, true, &rng);
    CHECK(arma::approx_equal(observed.per_record, clean.per_record, "absdiff", 0.0));
    dpbo::ExperimentRng replay(2);
    CHECK(arma::abs(observed.values - clean.values - 0.2 * replay.normal(2, 1)).max() <= 1e-12);
}

TEST_CASE("huber-regression: bad parameters are refused naming the key") {
    CHECK(mentions(refusal({{"dim", "0"}}), "dim"));
    CHECK(mentions(refusal({{"records", "0"}}), "records"));
    CHECK(mentions(refusal({{"huber_c", "0"}}), "huber_c"));
    CHECK(mentions(refusal({{"bound", "-2"}}), "bound"));
    CHECK(mentions(refusal({{"data_seed", "-3"}}), "data_seed"));
    CHECK(mentions(refusal({{"true_value", "x"}}), "true_value"));
    // A box that misses the minimiser would make the known optimum unreachable.
    const std::string small_box = refusal({{"bound", "0.5"}});
    CAPTURE(small_box);
    CHECK(mentions(small_box, "huber-regression"));
    CHECK(mentions(small_box, "bound = 0.5"));
    // Fewer records than coefficients: a whole set of minimisers, so no known optimum.
    const std::string too_few = refusal({{"records", "2"}});
    CAPTURE(too_few);
    CHECK(mentions(too_few, "records = 2"));
    CHECK(mentions(too_few, "dim = 4"));
    CHECK(refusal({{"records", "4"}}).empty());
}
