// DPareto's DP-SGD / DP-Adam oracle (Avent et al. 2020, Algorithms 3–4): the clipped mean's
// sensitivity 2L/m under replace-one, the noise scale (2L/m)σ checked statistically on one step, ε
// from the RDP accountant with sampling without replacement, and utility on a9a.
#include <cmath>
#include <map>
#include <string>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "dp_linear_training.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "libsvm_reader.hpp"
#include "subsampled_gaussian.hpp"
#include "test_support.hpp"

namespace {

constexpr std::size_t kFeatures = 10;

dpbo::plugin_data::SparseRows random_rows(std::size_t n, std::mt19937_64& engine) {
    std::normal_distribution<double> normal;
    dpbo::plugin_data::SparseRows rows;
    rows.labels.set_size(n);
    for (std::size_t r = 0; r < n; ++r) {
        for (std::size_t j = 0; j < kFeatures; ++j) {
            rows.index.push_back(static_cast<std::uint32_t>(j));
            rows.value.push_back(3.0 * normal(engine));  // norms well above the clipping norms used
        }
        rows.starts.push_back(rows.index.size());
        rows.labels[r] = normal(engine) > 0 ? 1.0 : -1.0;
    }
    return rows;
}

}  // namespace

TEST_CASE("dpsgd: the clipped mean moves by at most 2L/m when one row of the lot is replaced") {
    std::mt19937_64 engine(8);
    std::normal_distribution<double> normal;
    for (const dpbo::dpsgd::Model model : {dpbo::dpsgd::Model::LogisticRegression, dpbo::dpsgd::Model::LinearSvm}) {
        dpbo::dpsgd::TrainingSettings settings{.lot = {.lot_size = 16, .clipping_norm = 0.7}, .model = model};
        double largest_ratio = 0.0;
        for (int trial = 0; trial < 200; ++trial) {
            dpbo::plugin_data::SparseRows rows = random_rows(16, engine);
            std::vector<std::size_t> lot(16);
            for (std::size_t i = 0; i < 16; ++i) lot[i] = i;
            arma::vec w(kFeatures);
            for (double& entry : w) entry = 0.3 * normal(engine);
            const arma::vec before = dpbo::dpsgd::clipped_mean_gradient(rows, kFeatures, lot, w, settings);
            CHECK(arma::norm(before) <= settings.lot.clipping_norm * (1.0 + 1e-12));
            const std::size_t replaced = static_cast<std::size_t>(trial) % 16;
            const dpbo::plugin_data::SparseRows other = random_rows(1, engine);
            for (std::size_t j = 0; j < kFeatures; ++j) rows.value[rows.starts[replaced] + j] = other.value[j];
            rows.labels[replaced] = -rows.labels[replaced];
            const arma::vec after = dpbo::dpsgd::clipped_mean_gradient(rows, kFeatures, lot, w, settings);
            largest_ratio =
                std::max(largest_ratio, arma::norm(after - before) / (2.0 * settings.lot.clipping_norm / 16.0));
        }
        MESSAGE("largest ‖Δg‖ / (2L/m) = " << largest_ratio);
        CHECK(largest_ratio <= 1.0 + 1e-12);
        CHECK(largest_ratio > 0.5);  // clipping binds: replacements reach the bound's order
    }
}

TEST_CASE("dpsgd: one step's noise has the standard deviation (2L/m) sigma") {
    // n = m: the lot is every row, so one epoch is one step and the clipped mean at w = 0 is fixed;
    // with η = 1 the weights are −(clipped mean + noise).
    std::mt19937_64 data_engine(2);
    const dpbo::plugin_data::SparseRows rows = random_rows(8, data_engine);
    const dpbo::dpsgd::TrainingSettings settings{
        .lot = {.epochs = 1, .lot_size = 8, .learning_rate = 1.0, .noise_multiplier = 1.5, .clipping_norm = 0.4}};
    std::vector<std::size_t> lot{0, 1, 2, 3, 4, 5, 6, 7};
    const arma::vec mean =
        -dpbo::dpsgd::clipped_mean_gradient(rows, kFeatures, lot, arma::vec(kFeatures, arma::fill::zeros), settings);
    constexpr int kDraws = 4000;
    double sum_squares = 0.0;
    arma::vec sum(kFeatures, arma::fill::zeros);
    std::mt19937_64 engine(5);
    for (int draw = 0; draw < kDraws; ++draw) {
        const arma::vec w = dpbo::dpsgd::train(rows, kFeatures, settings, engine);
        sum += w - mean;
        sum_squares += arma::accu(arma::square(w - mean));
    }
    const double scale = 2.0 * 0.4 / 8.0 * 1.5;
    const double samples = double(kDraws) * kFeatures;
    // Σ z² / (k s²) has mean 1 and standard deviation √(2/k); four of them, and the mean within four
    // standard errors per coordinate.
    CHECK(std::abs(sum_squares / (samples * scale * scale) - 1.0) <= 4.0 * std::sqrt(2.0 / samples));
    CHECK(arma::abs(sum / kDraws).max() <= 4.0 * scale / std::sqrt(double(kDraws)) * 1.2);
}

TEST_CASE("dpsgd objective: epsilon from the without-replacement RDP accountant, utility above the majority class") {
    auto objective = dpbo::test::make<dpbo::Objective>(
        "dpsgd", {{"training_records", "4096"}, {"test_records", "4000"}, {"repetitions", "3"}});
    REQUIRE(objective->outputs().size() == 2);
    CHECK(objective->space().dimensions()[0].integer);
    CHECK(objective->space().dimensions()[1].integer);
    const arma::mat points{{4, 64, 0.02, 1.0, 1.0}, {4, 64, 0.02, 16.0, 1.0}};
    const dpbo::Evaluations result = dpbo::test::evaluate_as_run(*objective, points, false);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const double expected =
            dpbo::rdp::subsampled_gaussian_epsilon(dpbo::rdp::Sampling::WithoutReplacement, 64.0 / 4096.0,
                                                   std::sqrt(points(i, 3)), 4 * 64, 1e-5, dpbo::rdp::Conversion::Tight)
                .value;
        CHECK(result.values(i, 0) == expected);
    }
    CHECK(result.values(1, 0) < result.values(0, 0));
    // a9a's majority class is 76 %: 4 epochs at noise variance 1 learn more than that.
    CHECK(result.values(0, 1) < 0.24);
    CHECK_THROWS_AS(dpbo::test::evaluate(*objective, arma::mat{{4.5, 64, 0.02, 1.0, 1.0}}, false), dpbo::RunError);
}

TEST_CASE("dpsgd objective: the learning-rate range is Table 1's unless the baselines ask for Table 4's") {
    const std::map<std::string, std::string> small = {{"training_records", "512"}, {"test_records", "100"}};
    auto table1 = dpbo::test::make<dpbo::Objective>("dpsgd", small);
    CHECK(table1->space().dimensions()[2].lower == 5e-4);
    CHECK(table1->space().dimensions()[2].upper == 5e-2);
    auto with_table4 = small;
    with_table4["learning_rates"] = "1e-3, 1e-1";
    auto table4 = dpbo::test::make<dpbo::Objective>("dpsgd", with_table4);
    CHECK(table4->space().dimensions()[2].lower == 1e-3);
    CHECK(table4->space().dimensions()[2].upper == 1e-1);
    for (const std::string bad : {"0.1, 0.01", "0, 0.1", "0.01"}) {
        auto parameters = small;
        parameters["learning_rates"] = bad;
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("dpsgd", parameters),
                             doctest::Contains("learning_rates"), dpbo::ValidationError);
    }
}

TEST_CASE("dpsgd objective: noise_hyperparameter = multiplier reads the noise dimension as σ, as the authors' code") {
    const std::map<std::string, std::string> small = {
        {"training_records", "1024"}, {"test_records", "500"}, {"repetitions", "2"}};
    auto variance = dpbo::test::make<dpbo::Objective>("dpsgd", small);
    auto with_multiplier = small;
    with_multiplier["noise_hyperparameter"] = "multiplier";
    auto multiplier = dpbo::test::make<dpbo::Objective>("dpsgd", with_multiplier);
    CHECK(variance->space().dimensions()[3].name == "noise_variance");
    CHECK(multiplier->space().dimensions()[3].name == "noise_multiplier");
    CHECK(multiplier->space().dimensions()[3].upper == 16);
    // Multiplier z is variance z²: the same σ, so the same ε and (common random numbers) the same error.
    const double z = 4.0;
    const dpbo::Evaluations a = dpbo::test::evaluate(*multiplier, arma::mat{{2, 64, 0.02, z, 1.0}}, false);
    const dpbo::Evaluations b = dpbo::test::evaluate(*variance, arma::mat{{2, 64, 0.02, z * z, 1.0}}, false);
    CHECK(a.values(0, 0) == b.values(0, 0));
    CHECK(a.values(0, 1) == b.values(0, 1));
    // And the top of the range is four times the noise of the paper's reading: a smaller ε.
    const dpbo::Evaluations c = dpbo::test::evaluate(*variance, arma::mat{{2, 64, 0.02, 16.0, 1.0}}, false);
    const dpbo::Evaluations d = dpbo::test::evaluate(*multiplier, arma::mat{{2, 64, 0.02, 16.0, 1.0}}, false);
    CHECK(d.values(0, 0) < c.values(0, 0));
    CHECK_THROWS_WITH_AS(dpbo::test::evaluate(*multiplier, arma::mat{{2, 64, 0.02, -1.0, 1.0}}, false),
                         doctest::Contains("noise_multiplier and clipping norm"), dpbo::RunError);
}
