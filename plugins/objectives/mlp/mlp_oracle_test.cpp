// DPareto's MNIST oracle `mlp` (Avent et al. 2020, MLP2 by DP-SGD with per-example clipping): the
// per-example gradient norms and the clipped sum computed without materialising per-example
// gradients, against a naive double-precision backpropagation written here; the clipping bound; the
// noise scale (2L/m)σ checked statistically on one step; a non-private run that learns; ε from the
// without-replacement RDP accountant; the IDX reader's and the domain's errors.
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dp_mlp_training.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "idx_reader.hpp"
#include "mlp_network.hpp"
#include "mnist_split.hpp"
#include "subsampled_gaussian.hpp"
#include "test_support.hpp"

namespace {

// One example's gradient of the softmax cross-entropy with respect to θ, in double, by explicit
// per-layer outer products (the layout of dpbo::mlp::Architecture: W_l column-major, then b_l).
std::vector<double> naive_gradient(const dpbo::mlp::Architecture& architecture, const arma::fvec& theta,
                                   const arma::fvec& image, arma::uword label) {
    const std::size_t layers = architecture.layers();
    std::vector<arma::vec> inputs{arma::conv_to<arma::vec>::from(image)};
    arma::vec z;
    for (std::size_t l = 0; l < layers; ++l) {
        const arma::mat w = arma::conv_to<arma::mat>::from(architecture.weights(theta, l));
        const arma::vec b = arma::conv_to<arma::vec>::from(architecture.bias(theta, l));
        z = w * inputs.back() + b;
        if (l + 1 < layers) inputs.push_back(arma::clamp(z, 0.0, arma::datum::inf));
    }
    arma::vec error = arma::exp(z - z.max());
    error /= arma::accu(error);
    error(label) -= 1.0;
    std::vector<double> gradient(architecture.parameter_count());
    for (std::size_t l = layers; l-- > 0;) {
        const arma::vec& input = inputs[l];
        std::size_t offset = 0;
        for (std::size_t k = 0; k < l; ++k) offset += architecture.widths()[k + 1] * (architecture.widths()[k] + 1);
        const arma::mat outer = error * input.t();
        for (arma::uword k = 0; k < outer.n_elem; ++k) gradient[offset + k] = outer(k);
        for (arma::uword k = 0; k < error.n_elem; ++k) gradient[offset + outer.n_elem + k] = error(k);
        if (l > 0) {
            const arma::mat w = arma::conv_to<arma::mat>::from(architecture.weights(theta, l));
            error = (w.t() * error) % arma::conv_to<arma::vec>::from(input > 0.0);
        }
    }
    return gradient;
}

arma::fmat random_images(std::size_t inputs, std::size_t count, std::mt19937_64& engine) {
    std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
    arma::fmat images(inputs, count);
    images.for_each([&](float& value) { value = pixel(engine); });
    return images;
}

arma::uvec random_labels(std::size_t classes, std::size_t count, std::mt19937_64& engine) {
    arma::uvec labels(count);
    for (arma::uword& label : labels) label = engine() % classes;
    return labels;
}

void write_bytes(const std::string& path, const std::vector<std::uint8_t>& bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

TEST_CASE("mlp: per-example gradient norms and the clipped sum match a naive per-example computation") {
    std::mt19937_64 engine(11);
    const dpbo::mlp::Architecture architecture({6, 5, 4, 3});
    arma::fvec theta = dpbo::mlp::he_initialisation(architecture, engine);
    std::normal_distribution<float> normal(0.0f, 0.3f);
    for (float& bias_or_weight : theta) bias_or_weight += normal(engine);  // non-zero biases too
    constexpr std::size_t kLot = 9;
    const arma::fmat images = random_images(6, kLot, engine);
    const arma::uvec labels = random_labels(3, kLot, engine);
    std::vector<std::vector<double>> gradients;
    std::vector<double> norms;
    for (std::size_t i = 0; i < kLot; ++i) {
        gradients.push_back(naive_gradient(architecture, theta, images.col(i), labels(i)));
        double squared = 0.0;
        for (double entry : gradients.back()) squared += entry * entry;
        norms.push_back(std::sqrt(squared));
    }
    // L between the smallest and largest norm, so that some examples are clipped and some not.
    std::vector<double> sorted = norms;
    std::sort(sorted.begin(), sorted.end());
    const double clipping_norm = 0.5 * (sorted[2] + sorted[kLot - 3]);
    const dpbo::mlp::ClippedLotGradient fast =
        dpbo::mlp::clipped_gradient_sum(architecture, theta, images, labels, static_cast<float>(clipping_norm));
    REQUIRE(fast.norms.n_elem == kLot);
    for (std::size_t i = 0; i < kLot; ++i) CHECK(fast.norms(i) == doctest::Approx(norms[i]).epsilon(1e-5));
    REQUIRE(fast.sum.n_elem == architecture.parameter_count());
    for (std::size_t k = 0; k < architecture.parameter_count(); ++k) {
        double expected = 0.0;
        for (std::size_t i = 0; i < kLot; ++i) expected += gradients[i][k] * std::min(1.0, clipping_norm / norms[i]);
        CHECK(fast.sum(k) == doctest::Approx(expected).epsilon(1e-4).scale(1e-3));
    }
}

TEST_CASE("mlp: the clipped sum moves by at most 2L when one example of the lot is replaced") {
    std::mt19937_64 engine(3);
    const dpbo::mlp::Architecture architecture({8, 6, 4});
    constexpr float kClip = 0.3f;
    double largest_ratio = 0.0;
    for (int trial = 0; trial < 200; ++trial) {
        const arma::fvec theta = dpbo::mlp::he_initialisation(architecture, engine);
        arma::fmat images = 4.0f * random_images(8, 12, engine);  // gradients well above L
        arma::uvec labels = random_labels(4, 12, engine);
        const dpbo::mlp::ClippedLotGradient before =
            dpbo::mlp::clipped_gradient_sum(architecture, theta, images, labels, kClip);
        CHECK(arma::norm(before.sum) <= 12 * kClip * (1 + 1e-5));
        const auto replaced = static_cast<arma::uword>(trial % 12);
        images.col(replaced) = 4.0f * random_images(8, 1, engine);
        labels(replaced) = (labels(replaced) + 1) % 4;
        const dpbo::mlp::ClippedLotGradient after =
            dpbo::mlp::clipped_gradient_sum(architecture, theta, images, labels, kClip);
        largest_ratio = std::max(largest_ratio, double(arma::norm(after.sum - before.sum)) / (2.0 * kClip));
    }
    MESSAGE("largest ‖Δ sum‖ / 2L = " << largest_ratio);
    CHECK(largest_ratio <= 1.0 + 1e-5);
    CHECK(largest_ratio > 0.5);  // clipping binds: replacements reach the bound's order
}

TEST_CASE("mlp: one step's noise has the standard deviation (2L/m) sigma") {
    // n = m: the lot is every image, so one epoch is one step and its clipped mean at θ₀ is fixed;
    // with η = 1, θ₁ = θ₀ − clipped mean − noise.
    std::mt19937_64 data_engine(2);
    const dpbo::mlp::Architecture architecture({4, 3, 2});
    const arma::fmat images = random_images(4, 8, data_engine);
    const arma::uvec labels = random_labels(2, 8, data_engine);
    const arma::fvec theta0 = dpbo::mlp::he_initialisation(architecture, data_engine);
    const dpbo::mlp::TrainingSettings settings{
        .lot = {.epochs = 1, .lot_size = 8, .learning_rate = 1.0, .noise_multiplier = 1.5, .clipping_norm = 0.4}};
    const arma::vec mean = arma::conv_to<arma::vec>::from(
        dpbo::mlp::clipped_gradient_sum(architecture, theta0, images, labels, 0.4f).sum / 8.0f);
    constexpr int kDraws = 3000;
    const double scale = 2.0 * 0.4 / 8.0 * 1.5;
    const std::size_t p = architecture.parameter_count();
    double sum_squares = 0.0;
    arma::vec sum(p, arma::fill::zeros);
    std::mt19937_64 engine(5);
    for (int draw = 0; draw < kDraws; ++draw) {
        const dpbo::mlp::TrainingOutcome outcome =
            dpbo::mlp::train(architecture, theta0, images, labels, settings, engine);
        REQUIRE_FALSE(outcome.diverged);
        const arma::vec noise = arma::conv_to<arma::vec>::from(theta0 - outcome.theta) - mean;
        sum += noise;
        sum_squares += arma::accu(arma::square(noise));
    }
    const double samples = double(kDraws) * double(p);
    // Σ z² / (k s²) has mean 1 and standard deviation √(2/k); four of them (float rounding of θ is
    // ~1e-7 relative, far below). Each coordinate's mean within four standard errors.
    CHECK(std::abs(sum_squares / (samples * scale * scale) - 1.0) <= 4.0 * std::sqrt(2.0 / samples));
    CHECK(arma::abs(sum / kDraws).max() <= 4.0 * scale / std::sqrt(double(kDraws)));
}

TEST_CASE("mlp: the split is a seeded permutation of the image indices") {
    const std::vector<arma::uword> order = dpbo::mlp::split_permutation(10000, 1);
    CHECK(std::set<arma::uword>(order.begin(), order.end()).size() == 10000);
    CHECK(*std::max_element(order.begin(), order.end()) == 9999);
    CHECK(order == dpbo::mlp::split_permutation(10000, 1));
    CHECK(order != dpbo::mlp::split_permutation(10000, 2));
    // Not a cut by index: the first 8000 draw from both halves of the file (SD-3 and SD-1).
    std::size_t from_second_half = 0;
    for (std::size_t i = 0; i < 8000; ++i) from_second_half += order[i] >= 5000 ? 1 : 0;
    CHECK(from_second_half > 3800);
    CHECK(from_second_half < 4200);
}

TEST_CASE("mlp objective: epsilon from the without-replacement RDP accountant, a non-private run learns") {
    auto objective = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "2"}});
    REQUIRE(objective->outputs().size() == 2);
    const auto& dimensions = objective->space().dimensions();
    REQUIRE(dimensions.size() == 5);
    CHECK(dimensions[0].integer);
    CHECK(dimensions[1].integer);
    CHECK(dimensions[1].upper == 4000);
    CHECK(dimensions[4].upper == 12);
    // Row 0: private (σ² = 4, L = 1), in the domain, evaluated as a run does; row 1: effectively
    // non-private (L = 10⁶ never binds, noise (2L/m)σ = 3e-6 per coordinate), outside the domain,
    // so evaluated directly.
    dpbo::Evaluations result = dpbo::test::evaluate_as_run(*objective, arma::mat{{1, 500, 0.05, 4.0, 1.0}}, false);
    const dpbo::Evaluations non_private = dpbo::test::evaluate(*objective, arma::mat{{3, 32, 0.05, 1e-20, 1e6}}, false);
    result.values.insert_rows(1, non_private.values);
    const double expected =
        dpbo::rdp::subsampled_gaussian_epsilon(dpbo::rdp::Sampling::WithoutReplacement, 500.0 / 8000.0, 2.0, 16, 1e-5,
                                               dpbo::rdp::Conversion::Tight)
            .value;
    CHECK(result.values(0, 0) == expected);
    CHECK(result.values(1, 0) > 1e6);  // the "non-private" run's ε is astronomical, as it should be
    MESSAGE("test errors: private " << result.values(0, 1) << ", non-private " << result.values(1, 1));
    // LeCun et al. (1998) report 12 % test error for a linear classifier trained on all 60 000
    // training images; three epochs of the MLP on 8 000 of these images must do better than that.
    CHECK(result.values(1, 1) < 0.12);
    CHECK(result.values(0, 1) < 0.9);  // even one noisy epoch beats guessing
    // The best and worst of the repetitions bracket their mean (auxiliary outputs, not modelled).
    REQUIRE(result.auxiliary.n_cols == 2);
    CHECK(result.auxiliary(0, 0) <= result.values(0, 1));
    CHECK(result.values(0, 1) <= result.auxiliary(0, 1));
}

TEST_CASE("mlp objective: domain, shape and data errors are named") {
    auto objective = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "1"}});
    CHECK_THROWS_WITH_AS(dpbo::test::evaluate(*objective, arma::mat{{1.5, 64, 0.05, 1.0, 1.0}}, false),
                         doctest::Contains("outside the domain"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(dpbo::test::evaluate(*objective, arma::mat{{1, 9000, 0.05, 1.0, 1.0}}, false),
                         doctest::Contains("1..8000"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(dpbo::test::evaluate(*objective, arma::mat{{1, 64, 0.05, 1.0}}, false),
                         doctest::Contains("expected 5"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"training_images", "9000"}}),
                         doctest::Contains("add up to more than"), dpbo::ValidationError);

    dpbo::test::TemporaryDirectory directory;
    const std::string wrong = directory.path() + "/labels-as-images";
    write_bytes(wrong, {0, 0, 8, 1, 0, 0, 0, 2, 3, 4});
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"images_file", wrong}}),
                         doctest::Contains("magic number 0x00000801"), dpbo::RunError);
    const std::string truncated = directory.path() + "/truncated";
    write_bytes(truncated, {0, 0, 8, 3, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 1, 2, 3});
    CHECK_THROWS_WITH_AS(dpbo::plugin_data::read_idx_bytes(truncated, "images_file", 3, "test"),
                         doctest::Contains("ends after 3 of the 8 payload bytes"), dpbo::RunError);
    const std::string trailing = directory.path() + "/trailing";
    write_bytes(trailing, {0, 0, 8, 1, 0, 0, 0, 2, 3, 4, 5});
    CHECK_THROWS_WITH_AS(dpbo::plugin_data::read_idx_bytes(trailing, "labels_file", 1, "test"),
                         doctest::Contains("bytes after the 2 payload bytes"), dpbo::RunError);
    const std::string labels = directory.path() + "/labels";
    write_bytes(labels, {0, 0, 8, 1, 0, 0, 0, 2, 3, 4});
    const dpbo::plugin_data::IdxBytes read = dpbo::plugin_data::read_idx_bytes(labels, "labels_file", 1, "test");
    CHECK(read.sizes == std::vector<std::size_t>{2});
    CHECK(read.values == std::vector<std::uint8_t>{3, 4});
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"labels_file", labels}}),
                         doctest::Contains("has 2 labels"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"labels_file", directory.path()}}),
                         doctest::Contains("not a regular file"), dpbo::ValidationError);
}

TEST_CASE("mlp objective: DP-Adam learns too, and the repetitions do not depend on the thread count") {
    auto adam = dpbo::test::make<dpbo::Objective>("mlp", {{"optimiser", "adam"}, {"repetitions", "1"}});
    // Non-private as above; Adam's usual step size. The same 12 % bar (a linear classifier on all
    // 60 000 training images, LeCun et al. 1998).
    const dpbo::Evaluations learned = dpbo::test::evaluate(*adam, arma::mat{{2, 64, 0.002, 1e-20, 1e6}}, false);
    MESSAGE("DP-Adam, non-private: test error " << learned.values(0, 1));
    CHECK(learned.values(0, 1) < 0.12);

    const arma::mat point{{1, 1000, 0.1, 1.0, 2.0}};
    auto one_thread = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "3"}, {"threads", "1"}});
    auto two_threads = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "3"}, {"threads", "2"}});
    const dpbo::Evaluations a = dpbo::test::evaluate_as_run(*one_thread, point, false);
    const dpbo::Evaluations b = dpbo::test::evaluate_as_run(*two_threads, point, false);
    CHECK(a.values(0, 1) == b.values(0, 1));
    CHECK(a.values(0, 0) == b.values(0, 0));
}

TEST_CASE("mlp objective: hidden_layers builds the paper's MLP1, and the authors' noise reading uses σ itself") {
    // MLP1 (one hidden layer of 1000 units): the description names the architecture the oracle trains,
    // and a non-private run learns as MLP2 does (the same 12 % bar as above).
    auto mlp1 = dpbo::test::make<dpbo::Objective>("mlp", {{"hidden_layers", "1000"}, {"repetitions", "1"}});
    auto* data = dynamic_cast<dpbo::SensitiveData*>(mlp1.get());
    REQUIRE(data != nullptr);
    CHECK(data->data_description().find("MLP 784-1000-10 (ReLU)") != std::string::npos);
    const dpbo::Evaluations learned = dpbo::test::evaluate(*mlp1, arma::mat{{2, 64, 0.05, 1e-20, 1e6}}, false);
    MESSAGE("MLP1, non-private: test error " << learned.values(0, 1));
    CHECK(learned.values(0, 1) < 0.12);
    for (const std::string& widths : {std::string("0"), std::string("12.5"), std::string("20000")})
        CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"hidden_layers", widths}}),
                             doctest::Contains("hidden_layers = "), dpbo::ValidationError);

    // noise_hyperparameter = multiplier: the dimension is named for what it sets, and a point's σ is
    // its value, so ε at multiplier z is ε at variance z².
    auto multiplier = dpbo::test::make<dpbo::Objective>(
        "mlp", {{"noise_hyperparameter", "multiplier"}, {"repetitions", "1"}, {"max_epochs", "2"}});
    auto variance = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "1"}, {"max_epochs", "2"}});
    CHECK(multiplier->space().dimensions()[3].name == "noise_multiplier");
    CHECK(variance->space().dimensions()[3].name == "noise_variance");
    const double z = 3.0;
    const double by_multiplier =
        dpbo::test::evaluate(*multiplier, arma::mat{{1, 2000, 0.05, z, 1.0}}, false).values(0, 0);
    const double by_variance =
        dpbo::test::evaluate(*variance, arma::mat{{1, 2000, 0.05, z * z, 1.0}}, false).values(0, 0);
    CHECK(by_multiplier == by_variance);
    CHECK(by_multiplier < dpbo::test::evaluate(*variance, arma::mat{{1, 2000, 0.05, z, 1.0}}, false).values(0, 0));
}
