// DPareto's sparse vector technique oracle (Avent et al. 2020, Algorithm 1): its closed-form ε
// against ε₁ + ε₂ of Lyu et al.'s Alg. 7, its answers in the noiseless limit, and the probability of
// a positive answer against the exact law of the difference of two Laplace variables.
#include <cmath>
#include <random>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "sparse_vector.hpp"
#include "test_support.hpp"

namespace {

// P(ν − ρ ≥ t) for t ≥ 0, ν ~ Lap(a), ρ ~ Lap(c), a ≠ c: the characteristic function
// 1/((1 + a²s²)(1 + c²s²)) splits into [a²/(1 + a²s²) − c²/(1 + c²s²)]/(a² − c²), so the tail is
// the same mixture of the two Laplace tails ½e^{−t/a} and ½e^{−t/c}.
double difference_tail(double t, double a, double c) {
    return (a * a * 0.5 * std::exp(-t / a) - c * c * 0.5 * std::exp(-t / c)) / (a * a - c * c);
}

}  // namespace

TEST_CASE("svt: the closed-form epsilon is epsilon1 + epsilon2 of Lyu et al. Alg. 7 with the paper's split") {
    for (double noise : {0.01, 0.3, 1.0, 7.5, 100.0}) {
        for (int cutoff : {1, 2, 5, 10, 30}) {
            const double b1 = noise / (1.0 + std::cbrt(2.0 * cutoff));
            const double b2 = noise - b1;
            const double epsilon = 1.0 / b1 + 2.0 * cutoff / b2;  // Δ = 1: ε₁ = Δ/b₁, ε₂ = 2CΔ/b₂
            CAPTURE(noise);
            CAPTURE(cutoff);
            CHECK(dpbo::svt::privacy_oracle(noise, cutoff) == doctest::Approx(epsilon).epsilon(1e-12));
        }
    }
}

TEST_CASE("svt: with negligible noise the answers are the truth, cut off after C positives") {
    std::vector<int> truth(100, 0);
    for (int i = 0; i < 10; ++i) truth[static_cast<std::size_t>(7 * i + 3)] = 1;
    std::mt19937_64 engine(5);
    // Laplace(1e-9) exceeds 1/4 with probability e^{−2.5e8}: never.
    CHECK(dpbo::svt::run(truth, 1e-9, 10, engine) == truth);
    CHECK(dpbo::svt::f1_score(truth, dpbo::svt::run(truth, 1e-9, 10, engine)) == 1.0);
    const std::vector<int> first_only = dpbo::svt::run(truth, 1e-9, 1, engine);
    int positives = 0;
    for (int answer : first_only) positives += answer;
    CHECK(positives == 1);
    CHECK(first_only[3] == 1);
    // One true positive, nine false negatives: F1 = 2/(2 + 9).
    CHECK(dpbo::svt::f1_score(truth, first_only) == doctest::Approx(2.0 / 11.0));
    CHECK(dpbo::svt::f1_score(truth, std::vector<int>(100, 0)) == 0.0);
}

TEST_CASE("svt: a positive answer has the probability of the Laplace difference law") {
    // One query, cutoff 1 and b = 2: b₁ = 2/(1 + 2^{1/3}), b₂ = 2 − b₁. A false query is answered
    // when ν − ρ ≥ 1/2, a true one when ν − ρ ≥ −1/2.
    constexpr double kNoise = 2.0;
    const double b1 = kNoise / (1.0 + std::cbrt(2.0));
    const double b2 = kNoise - b1;
    const double p_false = difference_tail(0.5, b2, b1);
    const double p_true = 1.0 - p_false;  // symmetric law
    constexpr int kRuns = 40000;
    std::mt19937_64 engine(11);
    int false_answered = 0, true_answered = 0;
    for (int run = 0; run < kRuns; ++run) {
        false_answered += dpbo::svt::run({0}, kNoise, 1, engine)[0];
        true_answered += dpbo::svt::run({1}, kNoise, 1, engine)[0];
    }
    // Four binomial standard deviations: a false failure about once in 16 000 fixed-seed suites.
    const double tolerance = 4.0 * std::sqrt(p_false * (1.0 - p_false) / kRuns);
    CHECK(std::abs(false_answered / double(kRuns) - p_false) <= tolerance);
    CHECK(std::abs(true_answered / double(kRuns) - p_true) <= tolerance);
}

TEST_CASE("svt objective: two minimised outputs, integer cutoff, a function of (b, C)") {
    auto objective = dpbo::test::make<dpbo::Objective>("svt", {{"repetitions", "20"}});
    const auto outputs = objective->outputs();
    REQUIRE(outputs.size() == 2);
    CHECK(outputs[0].name == "epsilon");
    CHECK(outputs[1].name == "error");
    CHECK(objective->space().dimensions()[1].integer);
    const arma::mat points{{0.05, 10.0}, {1.0, 5.0}, {50.0, 1.0}};
    const dpbo::Evaluations first = dpbo::test::evaluate_as_run(*objective, points, false);
    const dpbo::Evaluations again = dpbo::test::evaluate_as_run(*objective, points, false);
    CHECK(arma::approx_equal(first.values, again.values, "absdiff", 0.0));  // common random numbers
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        CHECK(first.values(i, 0) == doctest::Approx(dpbo::svt::privacy_oracle(points(i, 0), points(i, 1))));
        CHECK(first.values(i, 1) >= 0.0);
        CHECK(first.values(i, 1) <= 1.0);
    }
    // b = 0.05 gives b₂ ≈ 0.038: a wrong answer needs |ν − ρ| ≥ 1/2, over ten scales: rare, so the
    // error is small; b = 50 answers nearly at random.
    CHECK(first.values(0, 1) < 0.1);
    CHECK(first.values(2, 1) > 0.5);
    CHECK_THROWS_AS(dpbo::test::evaluate(*objective, arma::mat{{1.0, 2.5}}, false), dpbo::RunError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Objective>("svt", {{"true_queries", "200"}}),
                         doctest::Contains("true_queries = 200 exceeds queries = 100"), dpbo::ValidationError);
}
