// K's distribution for a selection among trials: its text, γ, probabilities, quantiles, and the
// secure draw's law checked cell by cell against the stated probabilities (fixed seed).
#include <doctest/doctest.h>

#include <cmath>
#include <map>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/trial_count.hpp"
#include "dpbo/random.hpp"

namespace {

using dpbo::TrialCount;

// The mean of the distribution from its probabilities (the tail beyond the sum's end below 1e-12).
double summed_mean(const TrialCount& count) {
    double mean = 0.0, mass = 0.0;
    for (std::uint64_t k = 0; mass < 1.0 - 1e-13 && k < 1000000; ++k) {
        const double p = count.probability(k);
        mean += static_cast<double>(k) * p;
        mass += p;
    }
    return mean;
}

}  // namespace

TEST_CASE("trial count: text round trip and the words of every refusal") {
    for (const char* text : {"fixed:k=20", "geometric:mean=10", "logarithmic:mean=10",
                             "negative-binomial:mean=10,eta=0.5", "poisson:mean=10"}) {
        CAPTURE(text);
        CHECK(TrialCount::parse(text).text() == text);
    }
    CHECK(TrialCount::parse("geometric:mean=10").describe() == "K ~ geometric with mean 10");
    CHECK(TrialCount::parse("negative-binomial:mean=10,eta=1").text() == "geometric:mean=10");
    CHECK_THROWS_WITH_AS(TrialCount::parse("geo:mean=10"),
                         doctest::Contains("trial count 'geo:mean=10': unknown distribution 'geo'; allowed: fixed:k=K"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("geometric:mean=0.5"),
                         doctest::Contains("'mean' = 0.5; allowed: a finite number >= 1"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("geometric:k=10"),
                         doctest::Contains("distribution 'geometric' has no key 'k'; its keys: mean"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("negative-binomial:mean=10"),
                         doctest::Contains("distribution 'negative-binomial' needs key 'eta'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("fixed:k=2.5"), doctest::Contains("'k' = 2.5; allowed: a whole number"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("poisson:mean=ten"),
                         doctest::Contains("'mean' = 'ten' is not a finite number"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(TrialCount::parse("negative-binomial:mean=10,eta=-1"),
                         doctest::Contains("'eta' = -1; allowed: a finite number >= 0"), dpbo::ValidationError);
    CHECK_THROWS_AS(TrialCount::parse("poisson:mean=10").gamma(), dpbo::RunError);
}

TEST_CASE("trial count: gamma gives the stated mean, never a larger gamma, and the probabilities sum to it") {
    for (const char* text :
         {"geometric:mean=10", "logarithmic:mean=10", "logarithmic:mean=100", "negative-binomial:mean=10,eta=0.5",
          "negative-binomial:mean=50,eta=5", "poisson:mean=10", "poisson:mean=3.5"}) {
        CAPTURE(text);
        const TrialCount count = TrialCount::parse(text);
        CHECK(summed_mean(count) == doctest::Approx(count.mean).epsilon(1e-9));
        if (count.family == TrialCount::Family::TruncatedNegativeBinomial) {
            const double g = count.gamma();
            // A slightly larger γ has a smaller mean: γ sits at (or just below) the exact solution.
            const double eta = count.eta;
            const auto mean_at = [eta](double gamma) {
                return eta == 0.0 ? (1 - gamma) / (gamma * -std::log(gamma))
                                  : eta * (1 - gamma) / (gamma * -std::expm1(eta * std::log(gamma)));
            };
            CHECK(mean_at(g) >= count.mean * (1 - 1e-14));
            CHECK(mean_at(g * (1 + 1e-9)) < count.mean);
        }
    }
    auto noise = dpbo::PrivacyNoiseSource::from_seed(1);
    CHECK(TrialCount::parse("geometric:mean=1").draw(noise) == 1);
}

TEST_CASE("trial count: quantiles") {
    // Geometric with mean 10: P(K ≤ k) = 1 − 0.9^k; the 0.99 quantile is ⌈log 0.01 / log 0.9⌉ = 44.
    CHECK(TrialCount::parse("geometric:mean=10").quantile(0.99) == 44);
    CHECK(TrialCount::parse("fixed:k=7").quantile(0.99) == 7);
    // Poisson(10): P(K ≤ 17) = 0.9857, P(K ≤ 18) = 0.9928.
    CHECK(TrialCount::parse("poisson:mean=10").quantile(0.99) == 18);
    CHECK_THROWS_AS(TrialCount::parse("poisson:mean=10").quantile(1.0), dpbo::ValidationError);
}

// Each cell's count is Binomial(n, p_k): with n = 20000 draws, every cell within 5 standard
// deviations (plus one) of n·p_k; the cells beyond the last one tested are pooled. A failure at a
// fixed seed is a wrong law, not bad luck: the chance that any of these ~40 cells strays 5σ by chance
// is below 1e-5.
TEST_CASE("trial count: the secure draw follows the stated distribution (fixed seed, per-cell binomial bounds)") {
    constexpr int n = 20000;
    for (const char* text :
         {"geometric:mean=4", "logarithmic:mean=4", "negative-binomial:mean=4,eta=2.5", "poisson:mean=4"}) {
        CAPTURE(text);
        const TrialCount count = TrialCount::parse(text);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(20261127);
        std::map<std::uint64_t, int> seen;
        for (int i = 0; i < n; ++i) ++seen[count.draw(noise)];
        constexpr std::uint64_t last = 12;
        double pooled_p = 1.0;
        int pooled = n;
        for (std::uint64_t k = 0; k <= last; ++k) {
            const double p = count.probability(k);
            const double expected = n * p, sd = std::sqrt(n * p * (1 - p));
            CAPTURE(k);
            CHECK(std::fabs(seen[k] - expected) <= 5 * sd + 1);
            pooled_p -= p;
            pooled -= seen[k];
        }
        const double sd = std::sqrt(n * pooled_p * (1 - pooled_p));
        CHECK(std::fabs(pooled - n * pooled_p) <= 5 * sd + 1);
    }
}
