// The mlp oracle in trial mode: a PrivateTrials objective whose DP-SGD draws its lots and
// noise from the host's trial noise, declares the subsampled Gaussian its ε computation assumes
// (lots without replacement, replace-one, q = m/n_t, T⌊n_t/m⌋ steps) and the score's Laplace
// release, and releases the error on the carved validation images. DPareto mode keeps its two
// outputs and has no PrivateTrials capability.
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dp_mlp_training.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

// 1500 training images less 500 for validation: 1000 trained on, lots of 500, so 2 steps an epoch.
std::map<std::string, std::string> small_trial(std::map<std::string, std::string> extra = {}) {
    const std::map<std::string, std::string> base{{"trial", "private"},         {"training_images", "1500"},
                                                  {"validation_images", "500"}, {"test_images", "500"},
                                                  {"trial_lot_size", "500"},    {"max_epochs", "3"}};
    for (const auto& entry : base) extra.insert(entry);  // the caller's settings win
    return extra;
}

dpbo::Evaluations evaluate_trials(dpbo::Objective& objective, const arma::mat& points, std::uint64_t key) {
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(key);
    dpbo::EvaluationRequest request;
    request.trial_noise = &noise;
    return objective.evaluate(points, request);
}

}  // namespace

TEST_CASE("mlp trial: DPareto mode is no PrivateTrials objective and keeps its five dimensions and two outputs") {
    auto dpareto = dpbo::test::make<dpbo::Objective>("mlp", {{"repetitions", "1"}});
    CHECK(dpbo::capability<dpbo::PrivateTrials>(*dpareto) == nullptr);
    CHECK(dpareto->outputs().size() == 2);
    CHECK(dpareto->space().dimensions().size() == 5);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"training_images", "3000"}}),
                         doctest::Contains("training_images = 3000"), dpbo::ValidationError);
}

TEST_CASE("mlp trial: each trial declares its subsampled Gaussian and the score's release and the bound covers them") {
    auto objective = dpbo::test::make<dpbo::Objective>(
        "mlp", small_trial({{"trial_noise_multiplier", "2"}, {"score_epsilon", "0.5"}}));
    const auto* trials = dpbo::capability<dpbo::PrivateTrials>(*objective);
    REQUIRE(trials != nullptr);
    CHECK(trials->trial_protected_unit().find("1500 training images") != std::string::npos);
    CHECK(trials->trial_neighbouring().find("replace one") != std::string::npos);
    REQUIRE(objective->outputs().size() == 1);
    const auto& dimensions = objective->space().dimensions();
    REQUIRE(dimensions.size() == 3);
    CHECK(dimensions[0].name == "epochs");
    CHECK(dimensions[1].name == "learning_rate");
    CHECK(dimensions[2].name == "clipping_norm");
    const std::vector<dpbo::PrivacyEvent> bound = trials->trial_bound();
    REQUIRE(bound.size() == 2);
    CHECK(bound[0].description().number("steps") == 6);  // 3 epochs of 2 lots
    const dpbo::Evaluations result = evaluate_trials(*objective, arma::mat{{1, 0.05, 1.0}, {2, 0.1, 4.0}}, 9);
    REQUIRE(result.trial_events.size() == 2);
    for (arma::uword i = 0; i < 2; ++i) {
        const auto& events = result.trial_events[i];
        REQUIRE(events.size() == 2);
        const auto* training = events[0].as<dpbo::SubsampledGaussianEvent>();
        REQUIRE(training != nullptr);
        CHECK(training->sampling_rate == 0.5);
        CHECK(training->noise_multiplier == 2.0);
        CHECK(training->steps == 2 * (i + 1));
        CHECK(training->sampling == dpbo::SubsampledGaussianEvent::Sampling::FixedSizeWithoutReplacement);
        CHECK(training->neighbouring == dpbo::SubsampledGaussianEvent::Neighbouring::ReplaceOne);
        CHECK(events[1].kind() == "laplace");
        CHECK(events[1].description().number("sensitivity") == doctest::Approx(1.0 / 500));
        CHECK(events[1].description().number("scale") == doctest::Approx(1.0 / (500 * 0.5)));
        // Covered by the bound as events_dominated_by states it: the same kinds in order, fewer
        // steps, every other parameter equal.
        const auto* most = bound[0].as<dpbo::SubsampledGaussianEvent>();
        REQUIRE(most != nullptr);
        CHECK(training->steps <= most->steps);
        CHECK(training->sampling_rate == most->sampling_rate);
        CHECK(training->noise_multiplier == most->noise_multiplier);
        CHECK(training->sampling == most->sampling);
        CHECK(training->neighbouring == most->neighbouring);
        CHECK(events[1].describe() == bound[1].describe());
        CHECK(result.auxiliary(i, 0) >= 0.0);
        CHECK(result.auxiliary(i, 0) <= 1.0);
    }
    CHECK(result.trial_events[1][0].as<dpbo::SubsampledGaussianEvent>()->steps == 4);
}

TEST_CASE("mlp trial: the same noise key gives the same scores and another key others") {
    auto objective = dpbo::test::make<dpbo::Objective>("mlp", small_trial());
    const arma::mat points{{1, 0.1, 1.0}};
    const dpbo::Evaluations first = evaluate_trials(*objective, points, 31);
    const dpbo::Evaluations again = evaluate_trials(*objective, points, 31);
    const dpbo::Evaluations other = evaluate_trials(*objective, points, 32);
    CHECK(first.values(0, 0) == again.values(0, 0));
    CHECK(first.auxiliary(0, 0) == again.auxiliary(0, 0));
    CHECK(first.values(0, 0) != other.values(0, 0));
}

TEST_CASE("mlp trial: a network trained with the secure noise learns") {
    // Lots of 250 of the 1000 images trained on: 4 steps an epoch, 12 in all; σ = 0.5 and a huge
    // score_epsilon leave the validation error visible. Guessing errs on 90 % of the images.
    auto objective = dpbo::test::make<dpbo::Objective>(
        "mlp", small_trial({{"trial_noise_multiplier", "0.5"}, {"score_epsilon", "1e6"}, {"trial_lot_size", "250"}}));
    const dpbo::Evaluations result = evaluate_trials(*objective, arma::mat{{3, 0.5, 2.0}}, 33);
    MESSAGE("validation error " << result.values(0, 0) << ", test error " << result.auxiliary(0, 0));
    CHECK(result.values(0, 0) < 0.6);
    CHECK(result.auxiliary(0, 0) < 0.6);
}

TEST_CASE("mlp trial: the secure noise of a step has the standard deviation (2L/m) sigma and lots are uniform") {
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(4);
    dpbo::mlp::SecureRandomness randomness(noise);
    // A zero clipped sum: the released mean is the noise alone.
    arma::fvec gradient(100000, arma::fill::zeros);
    const double scale = 2.0 * 1.5 / 250.0 * 1.1;
    randomness.privatise(gradient, 250, scale);
    const arma::vec draws = arma::conv_to<arma::vec>::from(gradient);
    // The sample variance of N normals has relative standard deviation √(2/N); five of them.
    CHECK(std::abs(arma::var(draws) / (scale * scale) - 1.0) < 5.0 * std::sqrt(2.0 / 1e5));
    CHECK(std::abs(arma::mean(draws)) < 5.0 * scale / std::sqrt(1e5));
    // pick(first, n) is uniform on first .. n − 1: 40 000 picks in 3 .. 6, each value 1/4 of them
    // within five binomial standard deviations.
    std::vector<double> counts(7, 0.0);
    for (int k = 0; k < 40000; ++k) counts[randomness.pick(3, 7)] += 1.0;
    for (int v = 0; v < 3; ++v) CHECK(counts[v] == 0.0);
    for (int v = 3; v < 7; ++v) CHECK(std::abs(counts[v] - 10000.0) < 5.0 * std::sqrt(40000 * 0.25 * 0.75));
}

TEST_CASE("mlp trial: keys of the other mode, a missing trial noise and a too large validation part are refused") {
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", small_trial({{"repetitions", "2"}})),
                         doctest::Contains("'repetitions' applies only with trial = dpareto"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", {{"trial_lot_size", "100"}}),
                         doctest::Contains("'trial_lot_size' applies only with trial = private"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("mlp", small_trial({{"validation_images", "1200"}})),
                         doctest::Contains("validation_images = 1200"), dpbo::ValidationError);
    auto objective = dpbo::test::make<dpbo::Objective>("mlp", small_trial());
    CHECK_THROWS_WITH_AS(objective->evaluate(arma::mat{{1, 0.1, 1.0}}, dpbo::EvaluationRequest{}),
                         doctest::Contains("trial noise"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(evaluate_trials(*objective, arma::mat{{1.5, 0.1, 1.0}}, 1), doctest::Contains("outside"),
                         dpbo::RunError);
}

TEST_CASE("mlp trial: an example whose gradient overflows adds nothing and the private training goes on") {
    const dpbo::mlp::Architecture architecture({4, 3, 2});
    // Weights of 1e30 make the logits overflow: every example's gradient norm is inf or NaN.
    const arma::fvec huge(architecture.parameter_count(), arma::fill::value(1e30f));
    arma::fmat images(4, 6, arma::fill::ones);
    const arma::uvec labels = {0, 1, 0, 1, 0, 1};
    const dpbo::mlp::ClippedLotGradient lot = dpbo::mlp::clipped_gradient_sum(architecture, huge, images, labels, 1.0f);
    CHECK_FALSE(lot.norms.is_finite());
    REQUIRE(lot.sum.is_finite());
    CHECK(arma::accu(arma::abs(lot.sum)) == 0.0f);

    // DPareto's oracle stops there; a private trial runs every step (its stop would be a release).
    dpbo::mlp::TrainingSettings settings;
    settings.lot.lot_size = 2;
    settings.lot.epochs = 2;
    settings.lot.learning_rate = 0.1;
    settings.lot.noise_multiplier = 1.0;
    settings.lot.clipping_norm = 1.0;
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(3);
    dpbo::mlp::SecureRandomness secure(noise);
    const dpbo::mlp::TrainingOutcome outcome = dpbo::mlp::train(architecture, huge, images, labels, settings, secure);
    CHECK_FALSE(outcome.diverged);
    CHECK(outcome.theta.is_finite());
    std::mt19937_64 engine(1);
    CHECK(dpbo::mlp::train(architecture, huge, images, labels, settings, engine).diverged);
}
