// DPareto's bolt-on logistic regression oracle (Wu et al. 2017, Algorithm 2): the L2 sensitivity
// 4/(γn) of projected SGD checked on neighbouring datasets trained with the same row order, the
// projection radius 1/γ, ε against the analytic Gaussian condition of Balle & Wang 2018, and the
// utility at negligible noise.
#include <cmath>
#include <random>

#include <doctest/doctest.h>

#include "dpbo/objective.hpp"
#include "libsvm_reader.hpp"
#include "projected_sgd.hpp"
#include "test_support.hpp"

namespace {

constexpr std::size_t kFeatures = 20;

// n random rows of norm ≤ 1 with ±1 labels that depend on the first two features (a learnable task).
dpbo::plugin_data::SparseRows random_rows(std::size_t n, std::mt19937_64& engine) {
    std::normal_distribution<double> normal;
    dpbo::plugin_data::SparseRows rows;
    rows.labels.set_size(n);
    for (std::size_t r = 0; r < n; ++r) {
        arma::vec x(kFeatures);
        for (double& entry : x) entry = normal(engine);
        x /= std::max(1.0, arma::norm(x));
        for (std::size_t j = 0; j < kFeatures; ++j) {
            rows.index.push_back(static_cast<std::uint32_t>(j));
            rows.value.push_back(x[j]);
        }
        rows.starts.push_back(rows.index.size());
        rows.labels[r] = x[0] + 0.5 * x[1] + 0.05 * normal(engine) > 0 ? 1.0 : -1.0;
    }
    return rows;
}

double phi(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

}  // namespace

TEST_CASE("bolt-on projected SGD: neighbouring datasets give weights within 4/(gamma n)") {
    std::mt19937_64 data_engine(17);
    constexpr std::size_t kRows = 200;
    for (double gamma : {0.01, 0.1, 1.0}) {
        double largest_ratio = 0.0;
        for (int trial = 0; trial < 20; ++trial) {
            dpbo::plugin_data::SparseRows rows = random_rows(kRows, data_engine);
            dpbo::plugin_data::SparseRows neighbour = rows;
            // Replace one row by another random one (features and label): the neighbouring relation
            // Wu et al.'s bound covers.
            const dpbo::plugin_data::SparseRows replacement = random_rows(1, data_engine);
            const std::size_t row = static_cast<std::size_t>(trial) * 7 % kRows;
            for (std::size_t j = 0; j < kFeatures; ++j) neighbour.value[rows.starts[row] + j] = replacement.value[j];
            neighbour.labels[row] = -rows.labels[row];
            std::mt19937_64 order(trial), same_order(trial);
            const dpbo::bolt_on_logreg::ProjectedSgdSettings settings{.regularisation = gamma, .passes = 5};
            const arma::vec w = dpbo::bolt_on_logreg::train_projected_sgd(rows, kFeatures, settings, order);
            const arma::vec w_neighbour =
                dpbo::bolt_on_logreg::train_projected_sgd(neighbour, kFeatures, settings, same_order);
            largest_ratio = std::max(
                largest_ratio, arma::norm(w - w_neighbour) / dpbo::bolt_on_logreg::weight_sensitivity(gamma, kRows));
            CHECK(arma::norm(w) <= 1.0 / gamma * (1.0 + 1e-12));
        }
        CAPTURE(gamma);
        MESSAGE("gamma " << gamma << ": largest ‖w − w'‖ / (4/(γn)) = " << largest_ratio);
        CHECK(largest_ratio <= 1.0);
        CHECK(largest_ratio > 0.0);
    }
}

TEST_CASE("bolt-on projected SGD: learns a learnable task") {
    std::mt19937_64 engine(3);
    const dpbo::plugin_data::SparseRows rows = random_rows(2000, engine);
    const dpbo::plugin_data::SparseRows test = random_rows(2000, engine);
    std::mt19937_64 order(1);
    const arma::vec w =
        dpbo::bolt_on_logreg::train_projected_sgd(rows, kFeatures, {.regularisation = 1e-3, .passes = 10}, order);
    // The labels follow x₀ + x₁/2 (sd ≈ 0.25) up to noise of sd 0.05: the best linear rule gets about 94 %
    // right (1 − arctan(0.05/0.25)/π), and a
    // model that learnt nothing gets about half.
    CHECK(dpbo::plugin_data::linear_accuracy(test, w) > 0.75);
}

TEST_CASE(
    "bolt-on-logreg objective: epsilon meets the analytic Gaussian condition at delta, low noise keeps accuracy") {
    auto objective = dpbo::test::make<dpbo::Objective>(
        "bolt-on-logreg", {{"training_records", "4000"}, {"test_records", "4000"}, {"repetitions", "4"}});
    const arma::mat points{{1e-3, 0.1}, {1e-2, 1.0}, {1e-2, 0.5}};
    const dpbo::Evaluations result = dpbo::test::evaluate_as_run(*objective, points, false);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const double sensitivity = 4.0 / (points(i, 0) * 4000.0);
        const double s = points(i, 1) / sensitivity;
        const double epsilon = result.values(i, 0);
        const double delta =
            phi(1.0 / (2.0 * s) - epsilon * s) - std::exp(epsilon) * phi(-1.0 / (2.0 * s) - epsilon * s);
        CAPTURE(i);
        CHECK(delta <= 1e-6 * (1.0 + 1e-6));
        CHECK(delta >= 1e-6 * (1.0 - 1e-3));  // the smallest such ε, not a loose one
    }
    CHECK(result.values(1, 0) < result.values(0, 0));  // more noise, smaller ε
    // a9a's majority class is 76 %; a regularised model with little noise beats it.
    CHECK(result.values(0, 1) < 0.2);
    CHECK(result.values(1, 1) > result.values(0, 1));
}
