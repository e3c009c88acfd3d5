// private-search's prior and choice of the released trial, compiled in directly: the prior's draws
// against their laws (fixed seeds, tolerances from the distributions), and the release rules.
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "trial_prior.hpp"
#include "trial_selection.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

using dpbo::private_search::TrialPrior;

TEST_CASE("private-search prior: random draws are log-uniform on a log dimension and whole on an integer one") {
    const auto space = dpbo::SearchSpace::box(
        {{"lr", 1e-4, 1.0, dpbo::Scale::Log, false}, {"epochs", 1.0, 10.0, dpbo::Scale::Linear, true}});
    const TrialPrior prior(space, TrialPrior::Kind::Random, 5, "test");
    auto noise = dpbo::PrivacyNoiseSource::from_seed(3);
    constexpr std::size_t draws = 20000;
    const arma::mat points = prior.draw(draws, noise);
    REQUIRE(points.n_rows == draws);
    CHECK(points.col(0).min() >= 1e-4);
    CHECK(points.col(0).max() <= 1.0);
    CHECK(arma::all(points.col(1) == arma::round(points.col(1))));
    // Log-uniform: half below the geometric midpoint 1e-2, within 5 binomial standard errors.
    const double below = static_cast<double>(arma::accu(points.col(0) < 1e-2)) / draws;
    CHECK(std::abs(below - 0.5) < 5.0 * std::sqrt(0.25 / draws));
}

TEST_CASE("private-search prior: a grid is drawn uniformly among its points, with replacement") {
    const auto space = dpbo::SearchSpace::uniform_box(1, 0.0, 1.0);
    const TrialPrior prior(space, TrialPrior::Kind::Grid, 5, "test");
    auto noise = dpbo::PrivacyNoiseSource::from_seed(9);
    constexpr std::size_t draws = 5000;
    const arma::mat points = prior.draw(draws, noise);
    arma::vec counts(5, arma::fill::zeros);
    for (std::size_t i = 0; i < draws; ++i) {
        const double level = points(i, 0) * 4.0;
        REQUIRE(std::abs(level - std::round(level)) < 1e-12);  // a grid point
        counts(static_cast<std::size_t>(std::lround(level))) += 1.0;
    }
    // Pearson's χ² with 4 degrees of freedom: 23.5 is its 0.9999 quantile.
    const double expected = draws / 5.0;
    CHECK(arma::accu(arma::square(counts - expected) / expected) < 23.5);
    // More draws than points: a grid in random order without replacement would have stopped at 5.
    CHECK(arma::all(counts > 0));
}

TEST_CASE("private-search prior: the draws are the stream's, the same for the same key") {
    const auto space = dpbo::SearchSpace::uniform_box(2, -1.0, 1.0);
    const TrialPrior prior(space, TrialPrior::Kind::Random, 5, "test");
    auto first = dpbo::PrivacyNoiseSource::from_seed(4);
    auto again = dpbo::PrivacyNoiseSource::from_seed(4);
    auto other = dpbo::PrivacyNoiseSource::from_seed(5);
    const arma::mat a = prior.draw(10, first);
    CHECK(arma::approx_equal(a, prior.draw(10, again), "absdiff", 0.0));
    CHECK_FALSE(arma::approx_equal(a, prior.draw(10, other), "absdiff", 0.0));
}

TEST_CASE("private-search prior: a grid the space cannot make is refused by name") {
    const auto space = dpbo::SearchSpace::uniform_box(9, 0.0, 1.0);
    CHECK_THROWS_WITH_AS(TrialPrior(space, TrialPrior::Kind::Grid, 50, "algorithm 'private-search'"),
                         doctest::Contains("grid_points = 50"), dpbo::ValidationError);
}

TEST_CASE("private-search release: the best trial by the score's sense, the first among equals") {
    const arma::vec scores = {0.2, 0.9, 0.1, 0.9};
    CHECK(*dpbo::private_search::best_trial(scores, dpbo::Sense::Maximise) == 1);
    CHECK(*dpbo::private_search::best_trial(scores, dpbo::Sense::Minimise) == 2);
    CHECK_FALSE(dpbo::private_search::best_trial(arma::vec(), dpbo::Sense::Maximise).has_value());
}

TEST_CASE("private-search release: thresholded stopping releases the first trial that passes τ") {
    const arma::vec scores = {0.2, 0.5, 0.9, 0.7};
    CHECK(*dpbo::private_search::first_passing_trial(scores, dpbo::Sense::Maximise, 0.5) == 1);
    CHECK(*dpbo::private_search::first_passing_trial(scores, dpbo::Sense::Minimise, 0.3) == 0);
    CHECK_FALSE(dpbo::private_search::first_passing_trial(scores, dpbo::Sense::Maximise, 0.95).has_value());
}
