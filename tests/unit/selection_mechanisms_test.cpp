// The exponential and permute-and-flip selection plugins, loaded through the registry as a user
// would load them: each samples its exact distribution (chi-square goodness of fit with a fixed
// seed), for ε·q from 1e-12 to 1e6, with ties, one candidate and monotone scores; each charges the
// ledger before it draws; each refuses what it cannot select from.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <string>
#include <vector>

#include <armadillo>
#include <boost/math/distributions/chi_squared.hpp>
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"
#include "privacy/exact_rational.hpp"
#include "test_support.hpp"

namespace {

using Raw = std::map<std::string, std::string>;

const std::vector<std::string> kSelections = {"exponential", "permute-and-flip"};

std::shared_ptr<dpbo::Selection> selection(const std::string& name, const Raw& parameters, double sensitivity = 1.0) {
    auto made = dpbo::test::make<dpbo::Selection>(name, parameters);
    made->calibrate(sensitivity);
    return made;
}

std::unique_ptr<dpbo::PrivacyLedger> ledger(dpbo::PrivacyNoiseSource& noise,
                                            std::optional<dpbo::PrivacyBudget> budget = std::nullopt) {
    auto made = std::make_unique<dpbo::PrivacyLedger>(dpbo::test::make<dpbo::Accountant>("basic"), std::move(budget),
                                                      noise, "test", dpbo::PrivacyLedger::Log::Discard);
    made->set_scope("scores moved by at most Δq", "one record");
    return made;
}

// How often each index is chosen in `draws` selections with a fixed seed.
std::vector<double> counts(const dpbo::Selection& chooser, const arma::vec& scores, std::size_t draws,
                           std::uint64_t seed) {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    auto run_ledger = ledger(noise);
    std::vector<double> seen(scores.n_elem, 0.0);
    for (std::size_t i = 0; i < draws; ++i) seen[chooser.select(scores, *run_ledger, "test choice")] += 1.0;
    return seen;
}

// Acceptance probabilities exp(−c·(q* − q_i)), c = ε/(2Δq) or ε/Δq.
std::vector<double> coin_probabilities(const arma::vec& scores, double c) {
    std::vector<double> p;
    for (const double q : scores) p.push_back(std::exp(-c * (scores.max() - q)));
    return p;
}

// The exponential mechanism's Pr[i] = exp(c·q_i − logsumexp(c·q)), computed in log space.
std::vector<double> exponential_distribution(const arma::vec& scores, double c) {
    const double top = c * scores.max();
    double sum = 0.0;
    for (const double q : scores) sum += std::exp(c * q - top);
    const double log_normaliser = top + std::log(sum);
    std::vector<double> p;
    for (const double q : scores) p.push_back(std::exp(c * q - log_normaliser));
    return p;
}

// Permute-and-flip's Pr[i] by brute force over all n! orders: i is chosen when every candidate
// before it in the order flips tails and i flips heads (McKenna & Sheldon 2020, Alg. 1).
std::vector<double> permute_and_flip_distribution(const arma::vec& scores, double c) {
    const std::vector<double> heads = coin_probabilities(scores, c);
    std::vector<std::size_t> order(scores.n_elem);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::vector<double> p(scores.n_elem, 0.0);
    double orders = 0.0;
    do {
        double all_tails_so_far = 1.0;
        for (const std::size_t i : order) {
            p[i] += all_tails_so_far * heads[i];
            all_tails_so_far *= 1.0 - heads[i];
        }
        orders += 1.0;
    } while (std::next_permutation(order.begin(), order.end()));
    for (double& x : p) x /= orders;
    return p;
}

std::vector<double> distribution(const std::string& name, const arma::vec& scores, double c) {
    return name == "exponential" ? exponential_distribution(scores, c) : permute_and_flip_distribution(scores, c);
}

// Significance of each goodness-of-fit test: a correct sampler fails one with probability 1e-4 (the
// seeds are fixed, so the outcome is reproducible; the level says how surprising a failure is).
constexpr double kAlpha = 1e-4;

// Pearson's chi-square statistic against `expected` probabilities, checked against the (1 − α)
// quantile of χ² with (categories − 1) degrees of freedom. Every expected count is kept ≥ 5 by the
// cases, so the χ² approximation holds.
void check_chi_square(const std::vector<double>& observed, const std::vector<double>& expected) {
    const double draws = std::accumulate(observed.begin(), observed.end(), 0.0);
    double statistic = 0.0;
    for (std::size_t i = 0; i < observed.size(); ++i) {
        const double e = draws * expected[i];
        REQUIRE(e >= 5.0);
        statistic += (observed[i] - e) * (observed[i] - e) / e;
    }
    const boost::math::chi_squared chi2(static_cast<double>(observed.size() - 1));
    const double threshold = boost::math::quantile(boost::math::complement(chi2, kAlpha));
    CAPTURE(statistic);
    CAPTURE(threshold);
    CHECK(statistic < threshold);
}

constexpr std::size_t kDraws = 20000;

}  // namespace

TEST_CASE("selections sample their exact distribution: chi-square against the closed form") {
    const arma::vec scores = {0.0, 1.0, 2.0, 3.0, 0.5};
    for (const auto& name : kSelections) {
        CAPTURE(name);
        SUBCASE("epsilon = 1: weights exp(ε q / (2Δq))") {
            const auto chooser = selection(name, {{"epsilon", "1"}});
            check_chi_square(counts(*chooser, scores, kDraws, 11), distribution(name, scores, 0.5));
        }
        SUBCASE("sensitivity 2, epsilon = 3: the weights scale with ε / Δq") {
            const auto chooser = selection(name, {{"epsilon", "3"}}, 2.0);
            check_chi_square(counts(*chooser, scores, kDraws, 12), distribution(name, scores, 0.75));
        }
        SUBCASE("monotone: weights exp(ε q / Δq)") {
            const auto chooser = selection(name, {{"epsilon", "1"}, {"monotone", "true"}});
            check_chi_square(counts(*chooser, scores, kDraws, 13), distribution(name, scores, 1.0));
        }
        SUBCASE("ties share their probability") {
            const arma::vec tied = {1.0, 1.0, 0.0, 1.0, -1.0};
            const auto chooser = selection(name, {{"epsilon", "2"}});
            check_chi_square(counts(*chooser, tied, kDraws, 14), distribution(name, tied, 1.0));
        }
        SUBCASE("scores near 1e15 with gaps of 1: only the exact differences matter") {
            // In doubles 1e15 + 0.5 and 1e15 + 1.5 are exact but ε·q loses the gaps' low bits at
            // larger magnitudes; the exact γ keeps them.
            const arma::vec shifted = scores + 1e15;
            const auto chooser = selection(name, {{"epsilon", "1"}});
            check_chi_square(counts(*chooser, shifted, kDraws, 15), distribution(name, scores, 0.5));
        }
    }
}

TEST_CASE("selections at epsilon * q of 1e-12 are uniform within 1e-12") {
    const arma::vec scores = {0.0, 1.0, 2.0, 3.0};
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "1e-12"}});
        const std::vector<double> exact = distribution(name, scores, 0.5e-12);
        for (const double p : exact) CHECK(std::fabs(p - 0.25) < 1e-12);
        check_chi_square(counts(*chooser, scores, kDraws, 21), std::vector<double>(4, 0.25));
    }
}

TEST_CASE("selections at epsilon * q of 1e6 choose only the best, and quickly") {
    // γ = 5e5 for every other candidate: exp(−5e5) is far below any double, yet the sampler takes γ
    // exactly and each coin ends after a few Bernoulli(exp(−1)) trials.
    const arma::vec scores = {1e6, 2e6, 0.0, -1e6, 2e6 - 1.0};
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "1"}});
        const auto started = std::chrono::steady_clock::now();
        const std::vector<double> seen = counts(*chooser, scores, 2000, 31);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        // Candidate 4 is 1 below the best: γ = 1/2, so it is chosen too, as often as the exact law says.
        CHECK(seen[0] == 0.0);
        CHECK(seen[2] == 0.0);
        CHECK(seen[3] == 0.0);
        CHECK(seen[1] + seen[4] == 2000.0);
        check_chi_square({seen[1], seen[4]}, distribution(name, arma::vec{0.0, -1.0}, 0.5));
        // A hang guard, not a benchmark: 2000 choices take milliseconds.
        CHECK(seconds < 5.0);
    }
}

TEST_CASE("selections at the ends of the double range: any finite scores, no overflow") {
    const arma::vec extreme = {-1.7e308, 1.7e308, 1.7e308 * 0.5};
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "1e300"}});
        const std::vector<double> seen = counts(*chooser, extreme, 200, 41);
        CHECK(seen[1] == 200.0);
    }
}

TEST_CASE("selections: one candidate is always chosen") {
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "0.5"}});
        const std::vector<double> seen = counts(*chooser, arma::vec{-3.0}, 100, 51);
        CHECK(seen[0] == 100.0);
    }
}

TEST_CASE("permute-and-flip is never worse than the exponential mechanism in expected quality") {
    // McKenna & Sheldon 2020, Thm 2, on the exact distributions the chi-square tests confirm.
    for (const arma::vec& scores :
         {arma::vec{0.0, 1.0, 2.0, 3.0, 0.5}, arma::vec{5.0, 0.0, 0.0, 0.0}, arma::vec{1.0, 1.0, 1.0}}) {
        for (const double c : {0.01, 0.5, 2.0}) {
            const auto em = exponential_distribution(scores, c);
            const auto pf = permute_and_flip_distribution(scores, c);
            double em_quality = 0.0;
            double pf_quality = 0.0;
            for (arma::uword i = 0; i < scores.n_elem; ++i) {
                em_quality += em[i] * scores[i];
                pf_quality += pf[i] * scores[i];
            }
            CHECK(pf_quality >= em_quality - 1e-12);
        }
    }
}

TEST_CASE("selections are charged to the ledger before any noise is drawn") {
    // ε = 0.6 per choice against a budget of ε = 1: the second choice is refused.
    const arma::vec scores = {0.0, 1.0, 2.0};
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "0.6"}});
        auto noise = dpbo::PrivacyNoiseSource::from_seed(61);
        auto replay = dpbo::PrivacyNoiseSource::from_seed(61);
        auto budgeted = ledger(noise, dpbo::PrivacyBudget::parse("epsilon=1"));
        auto unlimited = ledger(replay);
        CHECK(chooser->select(scores, *budgeted, "first choice") == chooser->select(scores, *unlimited, "same"));
        CHECK_THROWS_WITH_AS(chooser->select(scores, *budgeted, "second choice"), doctest::Contains("'second choice'"),
                             dpbo::BudgetExceeded);
        // The noise source stands exactly where one choice left it.
        CHECK(noise.next_u64() == replay.next_u64());
        CHECK(budgeted->charges() == 1);
    }
}

TEST_CASE("selections state a pure epsilon-DP guarantee for scores of sensitivity delta q") {
    for (const auto& name : kSelections) {
        CAPTURE(name);
        const auto chooser = selection(name, {{"epsilon", "0.7"}}, 2.5);
        CHECK(chooser->accountant().name == "basic");
        CHECK(chooser->event().kind() ==
              (name == "exponential" ? dpbo::ExponentialEvent::kind_name : dpbo::PureDpEvent::kind_name));
        const auto statement = chooser->guarantee();
        CHECK(statement.notion == dpbo::PrivacyNotion::PureDP);
        CHECK(statement.epsilon == 0.7);
        REQUIRE(statement.assumptions.size() == 1);
        CHECK(statement.assumptions[0] == "any one score moves by at most Δq = 2.5 between neighbouring datasets");
        CHECK(statement.mechanism.find("(2Δq)") != std::string::npos);
        const auto monotone = selection(name, {{"epsilon", "0.7"}, {"monotone", "true"}}, 2.5);
        const auto monotone_statement = monotone->guarantee();
        REQUIRE(monotone_statement.assumptions.size() == 2);
        CHECK(monotone_statement.assumptions[1].find("all scores move in the same direction") != std::string::npos);
        CHECK(monotone_statement.mechanism.find("(Δq)") != std::string::npos);
    }
}

TEST_CASE("selections refuse bad parameters, a bad sensitivity, no calibration and non-finite scores") {
    for (const auto& name : kSelections) {
        CAPTURE(name);
        CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Selection>(name, {}), doctest::Contains("epsilon"),
                             dpbo::ValidationError);
        for (const char* bad : {"0", "-1", "inf", "nan"})
            CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Selection>(name, {{"epsilon", bad}}),
                                 doctest::Contains("epsilon"), dpbo::ValidationError);
        auto chooser = dpbo::test::make<dpbo::Selection>(name, {{"epsilon", "1"}});
        auto noise = dpbo::PrivacyNoiseSource::from_seed(71);
        auto run_ledger = ledger(noise);
        CHECK_THROWS_WITH_AS(chooser->event(), doctest::Contains("before calibrate"), dpbo::RunError);
        for (const double bad : {0.0, -1.0, HUGE_VAL, 1e308})
            CHECK_THROWS_WITH_AS(chooser->calibrate(bad), doctest::Contains("sensitivity"), dpbo::ValidationError);
        CHECK_FALSE(chooser->calibrated());
        chooser->calibrate(1.0);
        // The score is named by its index; its value (sensitive) is not printed.
        const arma::vec scores = {0.25, std::nan(""), 0.75};
        try {
            chooser->select(scores, *run_ledger, "choice");
            FAIL("a NaN score was accepted");
        } catch (const dpbo::RunError& e) {
            const std::string message = e.what();
            CHECK(message.find("score 1 of 3 is not finite") != std::string::npos);
            CHECK(message.find("0.25") == std::string::npos);
            CHECK(message.find("nan") == std::string::npos);
        }
        CHECK_THROWS_WITH_AS(chooser->select(arma::vec{1.0, -HUGE_VAL}, *run_ledger, "choice"),
                             doctest::Contains("score 1 of 2 is not finite"), dpbo::RunError);
    }
}

TEST_CASE("the score gap is formed exactly, whatever the exponents") {
    namespace privacy = dpbo::privacy;
    // 3·(2^60 − 1)/2 and (2^-1000 − 2^-1074)/2^-1074 = 2^74 − 1 (the smallest subnormal against a
    // normal number): neither is a double.
    const auto big = privacy::detail::to_rational(privacy::ScaledDifference{3.0, 0x1p60, 1.0, 2.0});
    CHECK(big.numerator == 3 * (mpz_class(1) << 60) - 3);
    CHECK(big.denominator == 2);
    const auto fine = privacy::detail::to_rational(privacy::ScaledDifference{1.0, 0x1p-1000, 0x1p-1074, 0x1p-1074});
    CHECK(fine.numerator == (mpz_class(1) << 74) - 1);
    CHECK(fine.denominator == 1);
    const auto huge = privacy::detail::to_rational(privacy::ScaledDifference{1e300, 1.7e308, -1.7e308, 1e-300});
    CHECK(huge.denominator > 0);
    CHECK(mpz_sizeinbase(huge.numerator.get_mpz_t(), 2) > 3000);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(81);
    CHECK_FALSE(privacy::bernoulli_exp_minus_difference({1e300, 1.7e308, -1.7e308, 1e-300}, noise));
    CHECK(privacy::bernoulli_exp_minus_difference({1e300, 2.0, 2.0, 1e-300}, noise));
    CHECK_THROWS_WITH_AS(privacy::bernoulli_exp_minus_difference({-1.0, 1.0, 0.0, 1.0}, noise),
                         doctest::Contains("factor = -1"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(privacy::bernoulli_exp_minus_difference({1.0, 1.0, 0.0, 0.0}, noise),
                         doctest::Contains("divisor = 0"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(privacy::bernoulli_exp_minus_difference({1.0, 0.125, 0.5, 1.0}, noise),
                         doctest::Contains("negative"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(privacy::bernoulli_exp_minus_difference({1.0, HUGE_VAL, 0.5, 1.0}, noise),
                         doctest::Contains("not finite"), dpbo::RunError);
}
