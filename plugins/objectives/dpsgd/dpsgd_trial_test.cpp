// The dpsgd objective in trial mode (trial = private): every point is a private learner whose
// declared events match its settings, whose noise comes from the request's trial noise (the same
// stream gives the same score, another stream another score), and whose bound covers every trial.
#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

const std::map<std::string, std::string> kSmall = {{"trial", "private"},      {"training_records", "1200"},
                                                   {"test_records", "500"},   {"validation_records", "200"},
                                                   {"trial_lot_size", "100"}, {"trial_noise_multiplier", "1.5"},
                                                   {"score_epsilon", "0.5"},  {"max_epochs", "4"}};

dpbo::Evaluations evaluate_with(dpbo::Objective& objective, const arma::mat& points, std::uint64_t seed) {
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::EvaluationRequest request;
    request.trial_noise = &noise;
    return objective.evaluate(points, request);
}

}  // namespace

TEST_CASE("dpsgd trial mode: each trial declares the subsampled Gaussian it ran and its score's Laplace release") {
    auto objective = dpbo::test::make<dpbo::Objective>("dpsgd", kSmall);
    const auto* trials = dpbo::capability<dpbo::PrivateTrials>(*objective);
    REQUIRE(trials != nullptr);
    CHECK(trials->trial_neighbouring() == "replace one record");
    REQUIRE(objective->outputs().size() == 1);
    CHECK(objective->outputs()[0].name == "validation_error");
    REQUIRE(objective->space().dim() == 3);  // epochs, learning rate, clipping norm

    const arma::mat points{{1, 0.02, 1.0}, {3, 0.01, 0.5}};
    const dpbo::Evaluations got = evaluate_with(*objective, points, 1);
    REQUIRE(got.trial_events.size() == 2);
    // 1000 training rows after the 200 validation rows; lots of 100: q = 0.1, 10 steps per epoch.
    const std::vector<std::string> expected_first = {
        "subsampled-gaussian:neighbouring=replace-one,noise_multiplier=1.5,sampling=fixed-size-without-replacement,"
        "sampling_rate=0.1,steps=10",
        "laplace:scale=2,sensitivity=1"};
    std::vector<std::string> first;
    for (const dpbo::PrivacyEvent& event : got.trial_events[0]) first.push_back(dpbo::event_text(event));
    REQUIRE(first.size() == 2);
    CHECK(first[0] == expected_first[0]);
    CHECK(first[1] == expected_first[1]);
    CHECK(got.trial_events[1][0].description().number("steps") == 30);
    // The bound (max_epochs = 4) covers every trial.
    for (const auto& events : got.trial_events) CHECK(dpbo::events_dominated_by(events, trials->trial_bound()));
    CHECK(got.values.n_cols == 1);
    CHECK(got.auxiliary.n_cols == 1);  // the test error, post-processing of the private model
}

TEST_CASE("dpsgd trial mode: its noise comes from the trial noise, reproducible for one stream and not another") {
    auto objective = dpbo::test::make<dpbo::Objective>("dpsgd", kSmall);
    const arma::mat points{{2, 0.02, 1.0}};
    const double once = evaluate_with(*objective, points, 7).values(0, 0);
    CHECK(evaluate_with(*objective, points, 7).values(0, 0) == once);
    // Laplace noise of scale 2 on the count: two streams agree with probability 0.
    CHECK(evaluate_with(*objective, points, 8).values(0, 0) != once);
    dpbo::EvaluationRequest without;
    CHECK_THROWS_WITH_AS(objective->evaluate(points, without), doctest::Contains("carries none"), dpbo::RunError);
}

TEST_CASE("dpsgd trial mode: a validation part that leaves less than one lot is refused naming the parameter") {
    auto parameters = kSmall;
    parameters["validation_records"] = "1150";
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("dpsgd", parameters),
                         doctest::Contains("validation_records = 1150"), dpbo::ValidationError);
    // The oracle mode stays the default: two outputs.
    auto oracle = dpbo::test::make<dpbo::Objective>("dpsgd", {{"training_records", "512"}, {"test_records", "100"}});
    CHECK(oracle->outputs().size() == 2);
    CHECK(dpbo::capability<dpbo::PrivateTrials>(*oracle) == nullptr);
}
