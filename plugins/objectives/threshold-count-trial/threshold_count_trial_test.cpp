// Objective 'threshold-count-trial': a private trial whose score −|F_n(θ) − q| is released through
// the secure Laplace sampler at scale 1/(nε) from the host's trial stream, declaring that event.
#include <cmath>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

std::shared_ptr<dpbo::Objective> make_trial(const Parameters& parameters = {}) {
    return dpbo::test::make<dpbo::Objective>("threshold-count-trial", parameters);
}

dpbo::Evaluations evaluate_with_noise(dpbo::Objective& objective, const arma::mat& points, std::uint64_t seed) {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::EvaluationRequest request;
    request.trial_noise = &noise;
    return objective.evaluate(points, request);
}

// −|F_n(θ) − q| of the records as the module documents their draw.
double documented_score(double threshold, std::size_t n, std::uint64_t seed, double q) {
    dpbo::ExperimentRng rng(seed);
    const arma::vec records = rng.normal(n, 1);
    return -std::abs(static_cast<double>(arma::accu(records <= threshold)) / static_cast<double>(n) - q);
}

}  // namespace

TEST_CASE("threshold-count-trial: a private trial declaring one Laplace release of sensitivity 1/n") {
    auto objective = make_trial({{"records", "50"}, {"epsilon", "0.5"}});
    const auto* trials = dpbo::capability<dpbo::PrivateTrials>(*objective);
    REQUIRE(trials != nullptr);
    CHECK(trials->trial_neighbouring() == "replace one record");
    const auto bound = trials->trial_bound();
    REQUIRE(bound.size() == 1);
    const auto* laplace = bound.front().as<dpbo::LaplaceEvent>();
    REQUIRE(laplace != nullptr);
    CHECK(laplace->sensitivity == doctest::Approx(1.0 / 50));
    CHECK(laplace->scale == doctest::Approx(1.0 / (50 * 0.5)));

    const arma::mat points = arma::vec{-1.0, 0.0, 2.5};
    const auto result = evaluate_with_noise(*objective, points, 7);
    REQUIRE(result.trial_events.size() == 3);
    for (const auto& events : result.trial_events) {
        REQUIRE(events.size() == 1);
        CHECK(events.front().as<dpbo::LaplaceEvent>()->scale == doctest::Approx(laplace->scale));
    }
    CHECK(objective->sense() == dpbo::Sense::Maximise);
}

TEST_CASE("threshold-count-trial: refuses to evaluate without the host's trial noise") {
    auto objective = make_trial();
    try {
        objective->evaluate(arma::mat(1, 1, arma::fill::zeros), {});
        FAIL("evaluated without trial noise");
    } catch (const dpbo::RunError& error) {
        CHECK(std::string(error.what()).find("trial_noise") != std::string::npos);
    }
}

TEST_CASE("threshold-count-trial: the released score is the exact score plus Laplace noise of scale 1/(nε)") {
    // N releases at one θ: their mean is within 5 standard errors (√2·b/√N) of the exact score and
    // their mean absolute deviation within 5 standard errors (b/√N) of b.
    constexpr std::size_t n = 40;
    constexpr double epsilon = 2.0;
    constexpr std::size_t draws = 4000;
    auto objective = make_trial({{"records", std::to_string(n)}, {"epsilon", "2"}, {"data_seed", "3"}});
    const double exact = documented_score(0.3, n, 3, 0.5);
    const arma::vec values = evaluate_with_noise(*objective, arma::mat(draws, 1, arma::fill::value(0.3)), 11).values;
    const double scale = 1.0 / (n * epsilon);
    CHECK(std::abs(arma::mean(values) - exact) < 5.0 * std::sqrt(2.0) * scale / std::sqrt(double(draws)));
    CHECK(std::abs(arma::mean(arma::abs(values - exact)) - scale) < 5.0 * scale / std::sqrt(double(draws)));
}

TEST_CASE("threshold-count-trial: the neighbour moves every score by at most 1/n") {
    // The same trial noise on D and D′: the releases differ by the exact scores' difference (up to
    // the release grid, far below 1/n).
    constexpr std::size_t n = 20;
    auto data = make_trial({{"records", "20"}, {"epsilon", "1"}});
    auto neighbour = make_trial({{"records", "20"}, {"epsilon", "1"}, {"neighbour_record", "0"}});
    const arma::mat points = arma::linspace(-4.0, 4.0, 81);
    const arma::vec here = evaluate_with_noise(*data, points, 5).values;
    const arma::vec there = evaluate_with_noise(*neighbour, points, 5).values;
    CHECK(arma::abs(here - there).max() <= 1.0 / n + 1e-9);
    CHECK(arma::abs(here - there).max() >= 1.0 / n - 1e-9);  // the adversarial record moves some score fully
}
