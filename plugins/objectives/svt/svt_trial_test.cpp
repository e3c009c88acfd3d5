// The svt oracle in trial mode: a PrivateTrials objective whose runs draw their Laplace
// noise from the host's trial noise, declare the sparse vector technique's pure ε and the score's
// Laplace release, and release the fraction of wrong answers with the Laplace scale they state.
// DPareto mode keeps its two outputs and has no PrivateTrials capability. Also the shared
// ErrorScoreRelease's law (plugins/shared/trial_oracle.hpp).
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/random.hpp"
#include "sparse_vector.hpp"
#include "test_support.hpp"
#include "trial_oracle.hpp"

namespace {

// A one-column matrix: arma::mat{{x}} is ambiguous between Armadillo's two list constructors.
arma::mat column(std::initializer_list<double> values) { return arma::mat(arma::vec(values)); }

dpbo::Evaluations evaluate_trials(dpbo::Objective& objective, const arma::mat& points, std::uint64_t key) {
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(key);
    dpbo::EvaluationRequest request;
    request.trial_noise = &noise;
    return objective.evaluate(points, request);
}

// |X − centre| of Laplace(centre, b) draws has mean b and standard deviation b; X has mean centre
// and standard deviation √2·b. Five standard errors each: a false failure has probability < 1e-6.
void check_laplace(const arma::vec& draws, double centre, double scale) {
    const double count = static_cast<double>(draws.n_elem);
    const double mean_absolute = arma::mean(arma::abs(draws - centre));
    CHECK(std::abs(mean_absolute - scale) < 5.0 * scale / std::sqrt(count));
    CHECK(std::abs(arma::mean(draws) - centre) < 5.0 * std::sqrt(2.0) * scale / std::sqrt(count));
}

}  // namespace

TEST_CASE("trial oracle: the score's release is the Laplace mechanism of scale 1/(n epsilon) and its event says so") {
    const dpbo::plugin_data::ErrorScoreRelease score(250, 0.4, "test");
    CHECK(score.sensitivity() == doctest::Approx(1.0 / 250));
    CHECK(score.scale() == doctest::Approx(0.01));
    const dpbo::PrivacyEvent event = score.event();
    REQUIRE(event.kind() == "laplace");
    CHECK(event.description().number("scale") == score.scale());
    CHECK(event.description().number("sensitivity") == score.sensitivity());
    CHECK(event.description().approximate_dp()->epsilon == doctest::Approx(0.4));
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(3);
    arma::vec draws(20000);
    for (double& draw : draws) draw = score.release(0.3, noise);
    check_laplace(draws, 0.3, score.scale());
    CHECK_THROWS_AS(dpbo::plugin_data::ErrorScoreRelease(0, 0.4, "test"), dpbo::ValidationError);
}

TEST_CASE("svt trial: DPareto mode is unchanged and is no PrivateTrials objective") {
    auto dpareto = dpbo::test::make<dpbo::Objective>("svt");
    CHECK(dpbo::capability<dpbo::PrivateTrials>(*dpareto) == nullptr);
    CHECK(dpareto->outputs().size() == 2);
    CHECK(dpareto->space().dimensions().size() == 2);
    const dpbo::Evaluations result = dpbo::test::evaluate(*dpareto, arma::mat{{1.0, 5.0}}, false);
    CHECK(result.values(0, 0) == dpbo::svt::privacy_oracle(1.0, 5.0));
    CHECK(result.trial_events.empty());
}

TEST_CASE("svt trial: each run declares the sparse vector's pure epsilon and the score's Laplace release") {
    auto objective = dpbo::test::make<dpbo::Objective>(
        "svt", {{"trial", "private"}, {"trial_epsilon", "0.5"}, {"score_epsilon", "0.2"}, {"queries", "100"}});
    const auto* trials = dpbo::capability<dpbo::PrivateTrials>(*objective);
    REQUIRE(trials != nullptr);
    CHECK(trials->trial_protected_unit().find("100 queries") != std::string::npos);
    CHECK(trials->trial_neighbouring().find("replace one") != std::string::npos);
    REQUIRE(objective->outputs().size() == 1);
    CHECK(objective->outputs()[0].sense == dpbo::Sense::Minimise);
    REQUIRE(objective->space().dimensions().size() == 1);
    CHECK(objective->space().dimensions()[0].name == "cutoff");
    const dpbo::Evaluations result = evaluate_trials(*objective, column({1.0, 10.0, 30.0}), 7);
    REQUIRE(result.trial_events.size() == 3);
    const std::vector<dpbo::PrivacyEvent> bound = trials->trial_bound();
    for (const auto& events : result.trial_events) {
        REQUIRE(events.size() == 2);
        CHECK(events[0].kind() == "pure");
        CHECK(events[0].description().number("epsilon") == 0.5);
        CHECK(events[1].kind() == "laplace");
        CHECK(events[1].description().number("sensitivity") == doctest::Approx(0.01));
        CHECK(events[1].description().number("scale") == doctest::Approx(0.01 / 0.2));
        // The bound is the trial's own events (events_dominated_by: an equal event covers itself).
        REQUIRE(bound.size() == 2);
        CHECK(events[0].describe() == bound[0].describe());
        CHECK(events[1].describe() == bound[1].describe());
    }
    // The calibrated noise spends no more than trial_epsilon at any cutoff.
    for (int cutoff : {1, 2, 10, 30, 1000}) {
        const double noise = dpbo::svt::noise_for_epsilon(0.5, cutoff);
        const dpbo::svt::NoiseSplit split = dpbo::svt::split_noise(noise, cutoff);
        CHECK(1.0 / split.threshold + 2.0 * cutoff / split.answer <= 0.5);
        CHECK(dpbo::svt::privacy_oracle(noise, cutoff) == doctest::Approx(0.5).epsilon(1e-11));
    }
}

TEST_CASE("svt trial: the same noise key gives the same scores and another key others") {
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"trial", "private"}});
    const arma::mat points = column({3.0, 10.0, 20.0});
    const dpbo::Evaluations first = evaluate_trials(*objective, points, 11);
    const dpbo::Evaluations again = evaluate_trials(*objective, points, 11);
    const dpbo::Evaluations other = evaluate_trials(*objective, points, 12);
    CHECK(arma::approx_equal(first.values, again.values, "absdiff", 0.0));
    CHECK(arma::approx_equal(first.auxiliary, again.auxiliary, "absdiff", 0.0));
    CHECK(arma::all(first.values.col(0) != other.values.col(0)));
}

TEST_CASE("svt trial: with all answers right the score is Laplace noise of scale 1/(m score_epsilon)") {
    // trial_epsilon = 1e6: the run's noise is of scale ~1e-5, so with C = 10 true queries every
    // answer is right and the released value is the score's noise alone.
    auto objective = dpbo::test::make<dpbo::Objective>(
        "svt", {{"trial", "private"}, {"trial_epsilon", "1e6"}, {"score_epsilon", "0.5"}, {"queries", "100"}});
    const dpbo::Evaluations result = evaluate_trials(*objective, arma::mat(4000, 1, arma::fill::value(10.0)), 5);
    CHECK(arma::all(result.auxiliary.col(0) == 0.0));  // 1 − F1 = 0: every answer right
    check_laplace(result.values.col(0), 0.0, 1.0 / (100 * 0.5));
}

TEST_CASE("svt trial: keys of the other mode, a missing trial noise and bad points are refused by name") {
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("svt", {{"trial", "private"}, {"repetitions", "5"}}),
                         doctest::Contains("'repetitions' applies only with trial = dpareto"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("svt", {{"score_epsilon", "1"}}),
                         doctest::Contains("'score_epsilon' applies only with trial = private"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("svt", {{"trial", "private"}, {"trial_epsilon", "1e-12"}}),
                         doctest::Contains("trial_epsilon"), dpbo::ValidationError);
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"trial", "private"}});
    CHECK_THROWS_WITH_AS(objective->evaluate(column({5.0}), dpbo::EvaluationRequest{}),
                         doctest::Contains("trial noise"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(evaluate_trials(*objective, column({2.5}), 1), doctest::Contains("cutoff = 2.5"),
                         dpbo::RunError);
    CHECK_THROWS_WITH_AS(evaluate_trials(*objective, arma::mat{{1.0, 5.0}}, 1), doctest::Contains("expected 1"),
                         dpbo::RunError);
}
