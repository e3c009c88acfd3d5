// The exact selections of the secure layer (exponential_mechanism_index, permute_and_flip_index):
// their bounds on exp(−γ) hold against a 4096-bit reference and are as narrow as the statements
// say; their refinement alone, forced from 8 bits on, samples the exact laws (chi-square at
// p = 1e-4, fixed seeds); a uniform that falls inside a bound's slack is refined to the answer the
// exact comparison gives; and the randomness a choice draws does not depend on the scores.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <armadillo>
#include <boost/math/distributions/chi_squared.hpp>
#include <doctest/doctest.h>
#include <gmpxx.h>
#include <mpfr.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/random.hpp"
#include "dpbo/selection.hpp"
#include "privacy/exact_rational.hpp"
#include "privacy/selection_sampling.hpp"
#include "test_support.hpp"

namespace {

namespace privacy = dpbo::privacy;
namespace detail = dpbo::privacy::detail;
using detail::uint128;

mpz_class to_mpz(uint128 value) {
    mpz_class result = static_cast<unsigned long>(value >> 64);
    result <<= 64;
    result += static_cast<unsigned long>(value & ~std::uint64_t{0});
    return result;
}

uint128 random_uint128(std::mt19937_64& engine) { return (static_cast<uint128>(engine()) << 64) | engine(); }

// One γ = factor·(best − score)/divisor, as the four doubles a selection passes.
struct GammaCase {
    double factor;
    double best;
    double score;
    double divisor;
};

// exp(−γ)·2^F for the exact γ, bounded below and above at 4096 bits.
struct Reference {
    Reference() {
        mpfr_init2(lo, 4096);
        mpfr_init2(hi, 4096);
        mpfr_init2(gamma, 4096);
    }
    ~Reference() {
        mpfr_clear(lo);
        mpfr_clear(hi);
        mpfr_clear(gamma);
    }
    Reference(const Reference&) = delete;
    Reference& operator=(const Reference&) = delete;

    void compute(const GammaCase& g, unsigned fraction_bits) {
        const auto exact = detail::to_rational(privacy::ScaledDifference{g.factor, g.best, g.score, g.divisor});
        const mpq_class q(exact.numerator, exact.denominator);
        mpfr_set_q(gamma, q.get_mpq_t(), MPFR_RNDU);
        mpfr_neg(lo, gamma, MPFR_RNDN);
        mpfr_exp(lo, lo, MPFR_RNDD);
        mpfr_mul_2ui(lo, lo, fraction_bits, MPFR_RNDD);
        mpfr_set_q(gamma, q.get_mpq_t(), MPFR_RNDD);
        mpfr_neg(hi, gamma, MPFR_RNDN);
        mpfr_exp(hi, hi, MPFR_RNDU);
        mpfr_mul_2ui(hi, hi, fraction_bits, MPFR_RNDU);
    }

    mpfr_t lo, hi, gamma;
};

std::string describe(const GammaCase& g) {
    return "factor " + std::to_string(g.factor) + ", best " + std::to_string(g.best) + ", score " +
           std::to_string(g.score) + ", divisor " + std::to_string(g.divisor);
}

// Hand-picked γ: zero, tiny, near multiples of ln 2 (the range reduction's seams), around the clamp
// at 68, huge, and scores whose exponents are far apart; then 3000 random ones.
std::vector<GammaCase> gamma_cases() {
    std::vector<GammaCase> cases = {
        {1.0, 0.0, 0.0, 2.0},
        {1.0, 5.0, 5.0, 1.0},
        {1.0, 1e-300, 0.0, 2.0},
        {1e-300, 1.0, 0.0, 1.0},
        {1.0, 1.0, 1.0 - 0x1p-52, 2.0},
        {1.0, 1e-20, 0.0, 1.0},
        {1.0, 0.5, 0.0, 1.0},
        {1.0, 1.0, 0.0, 1.0},
        {1.0, 0.0, -std::log(2.0), 1.0},
        {1.0, 0.0, -10 * std::log(2.0), 1.0},
        {1.0, 0.0, -45.0, 1.0},
        {1.0, 0.0, -66.0, 1.0},
        {1.0, 0.0, -67.9, 1.0},
        {1.0, 0.0, -68.0, 1.0},
        {1.0, 0.0, -68.1, 1.0},
        {1.0, 0.0, -100.0, 1.0},
        {1.0, 1e6, 0.0, 2.0},
        {1e300, 1.7e308, -1.7e308, 1e-300},
        {1.0, 1e15 + 2.0, 1e15, 2.0},
        {1.0, 0x1p-1000, 0x1p-1074, 0x1p-1074},
        {3.0, 0x1p60, 1.0, 0x1p62},
    };
    for (int k = 1; k <= 97; ++k) cases.push_back({1.0, 0.0, -k * std::log(2.0), 1.0});
    std::mt19937_64 engine(2029);
    std::uniform_real_distribution<double> gamma(0.0, 80.0);
    std::uniform_real_distribution<double> magnitude(-30.0, 30.0);
    for (int i = 0; i < 3000; ++i) {
        const double best = std::pow(10.0, magnitude(engine)) * (i % 2 == 0 ? 1.0 : -1.0);
        const double divisor = std::pow(10.0, magnitude(engine) / 3.0);
        const double target = gamma(engine);
        cases.push_back({1.0, best, best - target * divisor, divisor});  // γ ≈ target; exact from these doubles
    }
    return cases;
}

// γ as a double, for the width the statements allow (≈ γ is enough there).
double approximate_gamma(const GammaCase& g) { return std::min(g.factor * ((g.best - g.score) / g.divisor), 1e300); }

// Significance of each goodness-of-fit test: a correct sampler fails one with probability 1e-4.
constexpr double kAlpha = 1e-4;

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

// Pr[i] ∝ exp(−c·(q* − q_i)).
std::vector<double> exponential_law(const arma::vec& scores, double c) {
    std::vector<double> p;
    for (const double q : scores) p.push_back(std::exp(-c * (scores.max() - q)));
    const double total = std::accumulate(p.begin(), p.end(), 0.0);
    for (double& x : p) x /= total;
    return p;
}

// Permute-and-flip's Pr[i] by brute force over all n! orders.
std::vector<double> permute_and_flip_law(const arma::vec& scores, double c) {
    std::vector<double> heads;
    for (const double q : scores) heads.push_back(std::exp(-c * (scores.max() - q)));
    std::vector<std::size_t> order(scores.n_elem);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::vector<double> p(scores.n_elem, 0.0);
    double orders = 0.0;
    do {
        double all_tails = 1.0;
        for (const std::size_t i : order) {
            p[i] += all_tails * heads[i];
            all_tails *= 1.0 - heads[i];
        }
        orders += 1.0;
    } while (std::next_permutation(order.begin(), order.end()));
    for (double& x : p) x /= orders;
    return p;
}

// How many 64-bit keystream words `choose` took from a source seeded with `seed`.
std::size_t words_drawn(std::uint64_t seed, const std::function<void(dpbo::PrivacyNoiseSource&)>& choose) {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    choose(noise);
    const std::uint64_t next = noise.next_u64();
    auto replay = dpbo::PrivacyNoiseSource::from_seed(seed);
    for (std::size_t k = 0; k < 1000000; ++k)
        if (replay.next_u64() == next) return k;
    FAIL("the source's position after the choice was not found");
    return 0;
}

}  // namespace

TEST_CASE("selection sampling: 128-bit products agree with GMP's") {
    std::mt19937_64 engine(11);
    for (int i = 0; i < 2000; ++i) {
        const uint128 a = random_uint128(engine) >> (engine() % 64);
        const uint128 b = random_uint128(engine) >> (engine() % 64);
        CHECK(to_mpz(detail::multiply_high(a, b)) == (to_mpz(a) * to_mpz(b)) >> 128);
    }
}

TEST_CASE("selection sampling: the 96-bit bounds hold exp(-gamma) and are no wider than stated") {
    Reference reference;
    mpfr_t allowed;
    mpfr_init2(allowed, 256);
    double widest = 0.0;  // (hi − lo − 4) / (p·(γ + 1)·2^-58·2^96), over the cases
    for (const GammaCase& g : gamma_cases()) {
        CAPTURE(describe(g));
        const detail::FixedExpBounds bounds({g.factor, g.divisor}, g.best);
        uint128 lo = 0;
        uint128 hi = 0;
        bounds.bound(g.score, lo, hi);
        reference.compute(g, detail::FixedExpBounds::kFractionBits);
        REQUIRE(lo <= hi);
        CHECK(hi <= uint128{1} << 96);
        CHECK(mpfr_cmp_z(reference.lo, to_mpz(lo).get_mpz_t()) >= 0);
        CHECK(mpfr_cmp_z(reference.hi, to_mpz(hi).get_mpz_t()) <= 0);
        // hi − lo ≤ p·(γ + 1)·2^-58·2^96 + 4, the width the statements' probabilities rest on.
        const double gamma = std::min(approximate_gamma(g), 1e6);
        mpfr_mul_d(allowed, reference.hi, (gamma + 1.0) * 0x1p-58, MPFR_RNDU);
        mpfr_add_ui(allowed, allowed, 4, MPFR_RNDU);
        CHECK(mpfr_cmp_z(allowed, to_mpz(hi - lo).get_mpz_t()) >= 0);
        const double p_scaled = mpfr_get_d(reference.hi, MPFR_RNDN);
        if (p_scaled > 1e6)
            widest = std::max(widest, (static_cast<double>(hi - lo) - 4.0) / (p_scaled * (gamma + 1.0) * 0x1p-58));
    }
    MESSAGE("widest (hi - lo - 4) / (p·(γ + 1)·2^38): " << widest);
    mpfr_clear(allowed);
}

TEST_CASE("selection sampling: the MPFR refinement's bounds hold exp(-gamma) at every precision") {
    Reference reference;
    std::vector<GammaCase> cases = gamma_cases();
    cases.resize(400);
    for (const unsigned precision : {8u, 16u, 64u, 128u, 256u}) {
        for (const unsigned fraction_bits :
             {detail::exponential_fraction_bits(precision), detail::coin_fraction_bits(precision)}) {
            for (const GammaCase& g : cases) {
                CAPTURE(precision);
                CAPTURE(fraction_bits);
                CAPTURE(describe(g));
                detail::ExpMinusBounds bounds({g.factor, g.divisor}, g.best, precision, fraction_bits);
                mpz_class lo;
                mpz_class hi;
                bounds.bound(g.score, lo, hi);
                reference.compute(g, fraction_bits);
                REQUIRE(lo <= hi);
                CHECK(hi <= mpz_class(1) << fraction_bits);
                CHECK(mpfr_cmp_z(reference.lo, lo.get_mpz_t()) >= 0);
                CHECK(mpfr_cmp_z(reference.hi, hi.get_mpz_t()) <= 0);
            }
        }
    }
}

TEST_CASE("selection sampling: the refinement alone samples the exact laws") {
    // From 8 bits on, most choices need several levels: the refinement's own law is checked.
    const arma::vec scores = {0.0, 1.0, 2.0, 3.0, 0.5};
    const privacy::ScoreScale scale{1.0, 2.0};  // c = 1/2
    constexpr std::size_t kDraws = 20000;
    SUBCASE("exponential mechanism") {
        auto noise = dpbo::PrivacyNoiseSource::from_seed(31);
        detail::RandomBits bits(noise);
        detail::Refinements refinements;
        std::vector<double> seen(scores.n_elem, 0.0);
        for (std::size_t i = 0; i < kDraws; ++i) {
            detail::PartialUniform u;
            seen[detail::exponential_index_refined(scores, scale, 3.0, u, 8, bits, &refinements)] += 1.0;
        }
        CHECK(refinements.levels > kDraws);  // some choices went beyond the first level
        check_chi_square(seen, exponential_law(scores, 0.5));
    }
    SUBCASE("permute-and-flip") {
        auto noise = dpbo::PrivacyNoiseSource::from_seed(32);
        detail::RandomBits bits(noise);
        detail::Refinements refinements;
        std::vector<double> seen(scores.n_elem, 0.0);
        for (std::size_t i = 0; i < kDraws; ++i)
            seen[detail::permute_and_flip_index_refined(scores, scale, 3.0, 8, bits, &refinements)] += 1.0;
        CHECK(refinements.levels > kDraws * scores.n_elem);
        check_chi_square(seen, permute_and_flip_law(scores, 0.5));
    }
}

TEST_CASE("selection sampling: the public choices sample the exact laws, ties and large gaps included") {
    constexpr std::size_t kDraws = 40000;
    const std::vector<arma::vec> score_sets = {arma::vec{0.0, 1.0, 2.0, 3.0, 0.5}, arma::vec{1.0, 1.0, 0.0, 1.0},
                                               arma::vec{0.0, -3.0, -40.0, -0.25}};
    std::uint64_t seed = 40;
    for (const arma::vec& scores : score_sets) {
        for (const bool exponential : {true, false}) {
            CAPTURE(exponential);
            auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
            std::vector<double> seen(scores.n_elem, 0.0);
            for (std::size_t i = 0; i < kDraws; ++i)
                seen[exponential ? privacy::exponential_mechanism_index(scores, {1.0, 2.0}, noise)
                                 : privacy::permute_and_flip_index(scores, {1.0, 2.0}, noise)] += 1.0;
            std::vector<double> law = exponential ? exponential_law(scores, 0.5) : permute_and_flip_law(scores, 0.5);
            // Bins expecting under 5 draws (γ = 20 here) are checked to stay (almost) empty instead.
            std::vector<double> observed;
            std::vector<double> expected;
            for (std::size_t i = 0; i < law.size(); ++i) {
                if (law[i] * kDraws >= 5.0) {
                    observed.push_back(seen[i]);
                    expected.push_back(law[i]);
                } else {
                    CHECK(seen[i] <= 2.0);
                }
            }
            const double kept = std::accumulate(expected.begin(), expected.end(), 0.0);
            for (double& x : expected) x /= kept;
            check_chi_square(observed, expected);
        }
    }
}

TEST_CASE("selection sampling: an exponential-mechanism uniform on a boundary is refined to the exact inversion") {
    // Equal scores: the boundaries are at U = k/n exactly, so the answer for U's first 128 bits on
    // either side is known, though no 96-bit bound can tell it.
    auto noise = dpbo::PrivacyNoiseSource::from_seed(51);
    detail::RandomBits bits(noise);
    for (const std::size_t n : {std::size_t{2}, std::size_t{4}}) {
        const arma::vec scores(n, arma::fill::zeros);
        const unsigned shift = n == 2 ? 127 : 126;  // 1/n = 2^shift / 2^128
        for (std::size_t k = 1; k < n; ++k) {
            CAPTURE(n);
            CAPTURE(k);
            const uint128 boundary = static_cast<uint128>(k) << shift;
            detail::Refinements at;
            CHECK(detail::exponential_index_from(scores, {1.0, 2.0}, 0.0, boundary, bits, &at) == k);
            CHECK(at.levels >= 1);
            detail::Refinements below;
            CHECK(detail::exponential_index_from(scores, {1.0, 2.0}, 0.0, boundary - 1, bits, &below) == k - 1);
            CHECK(below.levels >= 1);
            // Away from a boundary the first bounds decide alone.
            detail::Refinements away;
            CHECK(detail::exponential_index_from(scores, {1.0, 2.0}, 0.0, boundary + (uint128{1} << 100), bits,
                                                 &away) == k);
            CHECK(away.levels == 0);
        }
    }
}

TEST_CASE(
    "selection sampling: a coin whose uniform falls within the bounds' slack is refined to the exact comparison") {
    Reference reference;
    mpfr_t u_real;
    mpfr_init2(u_real, 8192);
    std::uint64_t seed = 60;
    std::vector<GammaCase> cases = gamma_cases();
    cases.resize(60);
    for (const GammaCase& g : cases) {
        CAPTURE(describe(g));
        const detail::FixedExpBounds bounds({g.factor, g.divisor}, g.best);
        uint128 lo = 0;
        uint128 hi = 0;
        bounds.bound(g.score, lo, hi);
        if (lo > 0) CHECK(detail::coin_from_bounds(lo - 1, lo, hi) == 1);
        if (hi < uint128{1} << 96) CHECK(detail::coin_from_bounds(hi, lo, hi) == 0);
        if (hi == lo) continue;
        for (const uint128 u : {lo, lo + (hi - lo) / 2, hi - 1}) {
            REQUIRE(detail::coin_from_bounds(u, lo, hi) == -1);
            auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
            detail::RandomBits bits(noise);
            detail::PartialUniform known = detail::PartialUniform::of(u, 96);
            const bool heads = detail::coin_refined({g.factor, g.divisor}, g.best, g.score, known, 128, bits);
            // The refinement extended u (its first 96 digits are kept) and decided from the digits it drew:
            // U ∈ [digits, digits + 1)/2^known lies wholly below p (heads) or at or above it (tails).
            REQUIRE(known.known > 96);
            CHECK((known.digits >> (known.known - 96)) == to_mpz(u));
            reference.compute(g, 0);
            if (heads) {
                mpfr_set_z(u_real, mpz_class(known.digits + 1).get_mpz_t(), MPFR_RNDN);
                mpfr_div_2ui(u_real, u_real, known.known, MPFR_RNDN);
                CHECK(mpfr_cmp(u_real, reference.hi) <= 0);
            } else {
                mpfr_set_z(u_real, known.digits.get_mpz_t(), MPFR_RNDN);
                mpfr_div_2ui(u_real, u_real, known.known, MPFR_RNDN);
                CHECK(mpfr_cmp(u_real, reference.lo) >= 0);
            }
        }
    }
    // p = 1 exactly: a uniform in the top slack is still heads, once refined.
    const detail::FixedExpBounds one({1.0, 2.0}, 0.0);
    uint128 lo = 0;
    uint128 hi = 0;
    one.bound(0.0, lo, hi);
    const uint128 top = (uint128{1} << 96) - 1;
    REQUIRE(detail::coin_from_bounds(top, lo, hi) == -1);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
    detail::RandomBits bits(noise);
    detail::PartialUniform known = detail::PartialUniform::of(top, 96);
    CHECK(detail::coin_refined({1.0, 2.0}, 0.0, 0.0, known, 128, bits));
    mpfr_clear(u_real);
}

TEST_CASE("selection sampling: the random bits a choice draws do not depend on the scores") {
    // A deterministic, untimed witness of "the work does not depend on the scores": for one seed,
    // every score vector of the same length takes exactly the same keystream words.
    const std::size_t n = 50;
    arma::vec flat(n, arma::fill::zeros);
    arma::vec one_best(n, arma::fill::value(-100.0));
    one_best[7] = 0.0;
    arma::vec tail(n);
    for (std::size_t i = 0; i < n; ++i) tail[i] = -2.0 * std::log1p(static_cast<double>(i));
    arma::vec neighbour_a(n, arma::fill::zeros);
    neighbour_a[0] = 1.0;
    arma::vec neighbour_b(n, arma::fill::ones);
    neighbour_b[0] = 0.0;
    arma::vec extreme(n, arma::fill::value(-1.7e308));
    extreme[3] = 1.7e308;
    const std::vector<arma::vec> worlds = {flat, one_best, tail, neighbour_a, neighbour_b, extreme};
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        CAPTURE(seed);
        for (const arma::vec& scores : worlds) {
            CHECK(words_drawn(seed, [&](dpbo::PrivacyNoiseSource& noise) {
                      privacy::exponential_mechanism_index(scores, {1.0, 2.0}, noise);
                  }) == 2);  // U's 128 bits, whatever the scores and n
        }
        const std::size_t flipped = words_drawn(seed, [&](dpbo::PrivacyNoiseSource& noise) {
            privacy::permute_and_flip_index(flat, {1.0, 2.0}, noise);
        });
        for (const arma::vec& scores : worlds) {
            CHECK(words_drawn(seed, [&](dpbo::PrivacyNoiseSource& noise) {
                      privacy::permute_and_flip_index(scores, {1.0, 2.0}, noise);
                  }) == flipped);
        }
        // The permutation's bits and 96 per coin: at least 96·n bits.
        CHECK(flipped * 64 >= 96 * n);
    }
}

TEST_CASE("selection sampling: the public choices refuse what they cannot choose from") {
    auto noise = dpbo::PrivacyNoiseSource::from_seed(71);
    for (const bool exponential : {true, false}) {
        CAPTURE(exponential);
        const auto choose = [&](const arma::vec& scores, privacy::ScoreScale scale) {
            return exponential ? privacy::exponential_mechanism_index(scores, scale, noise)
                               : privacy::permute_and_flip_index(scores, scale, noise);
        };
        CHECK_THROWS_WITH_AS(choose(arma::vec{1.0}, {-1.0, 1.0}), doctest::Contains("factor = -1"),
                             dpbo::ValidationError);
        CHECK_THROWS_WITH_AS(choose(arma::vec{1.0}, {1.0, 0.0}), doctest::Contains("divisor = 0"),
                             dpbo::ValidationError);
        CHECK_THROWS_WITH_AS(choose(arma::vec{1.0}, {1.0, HUGE_VAL}), doctest::Contains("divisor = inf"),
                             dpbo::ValidationError);
        CHECK_THROWS_WITH_AS(choose(arma::vec{}, {1.0, 1.0}), doctest::Contains("no scores"), dpbo::RunError);
        try {
            choose(arma::vec{0.25, std::nan(""), 0.75}, {1.0, 1.0});
            FAIL("a NaN score was accepted");
        } catch (const dpbo::RunError& e) {
            const std::string message = e.what();
            CHECK(message.find("score 1 of 3 is not finite") != std::string::npos);
            CHECK(message.find("0.25") == std::string::npos);
        }
        CHECK(choose(arma::vec{-3.0}, {1.0, 1.0}) == 0);
        CHECK(choose(arma::vec{2.0, 1.0}, {0.0, 1.0}) < 2);  // factor 0: uniform
    }
}

TEST_CASE("selection sampling: each selection's statement says what its running time depends on") {
    for (const std::string name : {"exponential", "permute-and-flip"}) {
        CAPTURE(name);
        const auto chooser = dpbo::test::make<dpbo::Selection>(name, {{"epsilon", "1"}});
        chooser->calibrate(1.0);
        const std::string mechanism = chooser->guarantee().mechanism;
        CHECK(mechanism.find("running time: ") != std::string::npos);
        CHECK(mechanism.find("whatever the scores") != std::string::npos);
        CHECK(mechanism.find(name == "exponential" ? "n·(ln n + 2)·2^-56 + n²·2^-92" : "n·2^-57") != std::string::npos);
    }
}
