// The bolt-on-logreg oracle in trial mode: a PrivateTrials objective that trains on the
// training rows less the validation part, perturbs the weights by the secure layer's Gaussian at
// the fixed μ, declares that μ-GDP event and the score's Laplace release, and releases the
// validation error. DPareto mode keeps its two outputs and has no PrivateTrials capability.
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
#include "test_support.hpp"

namespace {

// A one-column matrix: arma::mat{{x}} is ambiguous between Armadillo's two list constructors.
arma::mat column(std::initializer_list<double> values) { return arma::mat(arma::vec(values)); }

const std::map<std::string, std::string> kSmallTrial{{"trial", "private"},
                                                     {"training_records", "3000"},
                                                     {"validation_records", "1000"},
                                                     {"test_records", "2000"},
                                                     {"passes", "2"}};

std::map<std::string, std::string> small_trial(std::map<std::string, std::string> extra) {
    for (const auto& entry : kSmallTrial) extra.insert(entry);  // the caller's settings win
    return extra;
}

dpbo::Evaluations evaluate_trials(dpbo::Objective& objective, const arma::mat& points, std::uint64_t key) {
    dpbo::PrivacyNoiseSource noise = dpbo::PrivacyNoiseSource::from_seed(key);
    dpbo::EvaluationRequest request;
    request.trial_noise = &noise;
    return objective.evaluate(points, request);
}

}  // namespace

TEST_CASE("bolt-on-logreg trial: DPareto mode is no PrivateTrials objective and keeps its two outputs") {
    auto dpareto = dpbo::test::make<dpbo::Objective>(
        "bolt-on-logreg", {{"training_records", "2000"}, {"test_records", "1000"}, {"repetitions", "1"}});
    CHECK(dpbo::capability<dpbo::PrivateTrials>(*dpareto) == nullptr);
    CHECK(dpareto->outputs().size() == 2);
    CHECK(dpareto->space().dimensions().size() == 2);
}

TEST_CASE("bolt-on-logreg trial: each trial declares its mu-GDP output perturbation and the score's release") {
    auto objective = dpbo::test::make<dpbo::Objective>("bolt-on-logreg",
                                                       small_trial({{"trial_mu", "0.5"}, {"score_epsilon", "0.25"}}));
    const auto* trials = dpbo::capability<dpbo::PrivateTrials>(*objective);
    REQUIRE(trials != nullptr);
    CHECK(trials->trial_protected_unit().find("3000 training rows") != std::string::npos);
    CHECK(trials->trial_neighbouring().find("replace one") != std::string::npos);
    REQUIRE(objective->outputs().size() == 1);
    REQUIRE(objective->space().dimensions().size() == 1);
    CHECK(objective->space().dimensions()[0].name == "regularisation");
    const dpbo::Evaluations result = evaluate_trials(*objective, column({1e-4, 1e-2, 1.0}), 3);
    REQUIRE(result.trial_events.size() == 3);
    for (const auto& events : result.trial_events) {
        REQUIRE(events.size() == 2);
        CHECK(events[0].kind() == "gdp");
        CHECK(events[0].description().number("mu") == 0.5);
        CHECK(events[1].kind() == "laplace");
        CHECK(events[1].description().number("sensitivity") == doctest::Approx(1.0 / 1000));
        CHECK(events[1].description().number("scale") == doctest::Approx(1.0 / (1000 * 0.25)));
        // The bound is the trial's own events (events_dominated_by: an equal event covers itself).
        const std::vector<dpbo::PrivacyEvent> bound = trials->trial_bound();
        REQUIRE(bound.size() == 2);
        CHECK(events[0].describe() == bound[0].describe());
        CHECK(events[1].describe() == bound[1].describe());
    }
    for (arma::uword i = 0; i < 3; ++i) {
        CHECK(result.values(i, 0) > -0.1);
        CHECK(result.values(i, 0) < 1.1);
        CHECK(result.auxiliary(i, 0) >= 0.0);
        CHECK(result.auxiliary(i, 0) <= 1.0);
    }
}

TEST_CASE("bolt-on-logreg trial: the same noise key gives the same scores and another key others") {
    auto objective = dpbo::test::make<dpbo::Objective>("bolt-on-logreg", small_trial({}));
    const arma::mat points = column({1e-3, 1e-1});
    const dpbo::Evaluations first = evaluate_trials(*objective, points, 21);
    const dpbo::Evaluations again = evaluate_trials(*objective, points, 21);
    const dpbo::Evaluations other = evaluate_trials(*objective, points, 22);
    CHECK(arma::approx_equal(first.values, again.values, "absdiff", 0.0));
    CHECK(arma::approx_equal(first.auxiliary, again.auxiliary, "absdiff", 0.0));
    CHECK(arma::all(first.values.col(0) != other.values.col(0)));
}

TEST_CASE("bolt-on-logreg trial: the output noise is calibrated to mu and the score's to 1/(n_val epsilon)") {
    // At μ = 1e4 the weights' noise is negligible (σ = 4/(γ n μ) = 2e-4 at γ = 1e-3) and the released
    // model learns (a9a's majority class is 76 %); at μ = 1e-5 it drowns the weights (σ = 2000 per
    // coordinate at γ = 0.1, against ‖w‖ ≤ 1/γ = 10). A huge score_epsilon leaves the error visible.
    auto accurate = dpbo::test::make<dpbo::Objective>("bolt-on-logreg",
                                                      small_trial({{"trial_mu", "1e4"}, {"score_epsilon", "1e6"}}));
    auto drowned = dpbo::test::make<dpbo::Objective>("bolt-on-logreg",
                                                     small_trial({{"trial_mu", "1e-5"}, {"score_epsilon", "1e6"}}));
    const dpbo::Evaluations good = evaluate_trials(*accurate, column({1e-3}), 1);
    CHECK(good.values(0, 0) < 0.24);
    CHECK(good.auxiliary(0, 0) < 0.24);
    arma::vec bad_errors(20);
    for (arma::uword k = 0; k < bad_errors.n_elem; ++k)
        bad_errors(k) = evaluate_trials(*drowned, column({1e-1}), 100 + k).values(0, 0);
    // Noise alone errs on a row with probability 1/2 by the symmetry w ↔ −w, so the errors (in
    // [0, 1], standard deviation ≤ 1/2) of 20 draws average within 0.5 ± 5·0.5/√20.
    CHECK(std::abs(arma::mean(bad_errors) - 0.5) < 5.0 * 0.5 / std::sqrt(20.0));
}

TEST_CASE(
    "bolt-on-logreg trial: keys of the other mode, a missing trial noise and a too large validation part are refused") {
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("bolt-on-logreg", small_trial({{"delta", "1e-5"}})),
                         doctest::Contains("'delta' applies only with trial = dpareto"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("bolt-on-logreg", {{"trial_mu", "1"}}),
                         doctest::Contains("'trial_mu' applies only with trial = private"), dpbo::ValidationError);
    std::map<std::string, std::string> too_many = kSmallTrial;
    too_many["validation_records"] = "2999";
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("bolt-on-logreg", too_many),
                         doctest::Contains("validation_records = 2999"), dpbo::ValidationError);
    auto objective = dpbo::test::make<dpbo::Objective>("bolt-on-logreg", small_trial({}));
    CHECK_THROWS_WITH_AS(objective->evaluate(column({1e-2}), dpbo::EvaluationRequest{}),
                         doctest::Contains("trial noise"), dpbo::RunError);
}
