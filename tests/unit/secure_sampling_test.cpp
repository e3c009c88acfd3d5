// The secure sampling layer against its exact distributions: chi-square goodness of fit at
// p = 1e-4 (critical values from Boost.Math's chi-square quantile; every bin expects ≥ 5 draws),
// fixed seeds; the grid properties a release must have; and the fixed-width grid rounding against
// its GMP twin.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <set>
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
#include "privacy/exact_integer.hpp"
#include "privacy/grid_rounding.hpp"

namespace {

namespace privacy = dpbo::privacy;

constexpr double kSignificance = 1e-4;

// Pearson's statistic of `counts` against `probabilities` (which must cover everything) for n draws.
void check_chi_square(const std::vector<double>& counts, const std::vector<double>& probabilities, double n,
                      const std::string& what) {
    REQUIRE(counts.size() == probabilities.size());
    double total = 0.0;
    double statistic = 0.0;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const double expected = n * probabilities[i];
        CAPTURE(what);
        CAPTURE(i);
        REQUIRE(expected >= 5.0);
        statistic += (counts[i] - expected) * (counts[i] - expected) / expected;
        total += probabilities[i];
    }
    REQUIRE(total == doctest::Approx(1.0).epsilon(1e-9));
    const double dof = static_cast<double>(counts.size() - 1);
    const double critical =
        boost::math::quantile(boost::math::complement(boost::math::chi_squared(dof), kSignificance));
    MESSAGE(what << ": chi-square " << statistic << " on " << dof << " dof (critical " << critical
                 << " at p = " << kSignificance << ")");
    CHECK(statistic <= critical);
}

// Upper tail Q(z) = P(Z ≥ z) of N(0, 1), accurate far into the tail.
double normal_upper(double z) { return 0.5 * std::erfc(z / std::sqrt(2.0)); }

// P(a ≤ Z < b) from the tail on the side of the interval, so no digits cancel.
double normal_between(double a, double b) {
    if (a >= 0.0) return normal_upper(a) - normal_upper(b);
    if (b <= 0.0) return normal_upper(-b) - normal_upper(-a);
    return 1.0 - normal_upper(-a) - normal_upper(b);
}

// P(a ≤ L < b) for L ~ Laplace(0, 1), from exp differences on the interval's side.
double laplace_between(double a, double b) {
    const auto side = [](double lo, double hi) {  // 0 ≤ lo < hi ≤ ∞: ½(e^−lo − e^−hi)
        return std::isinf(hi) ? 0.5 * std::exp(-lo) : -0.5 * std::exp(-lo) * std::expm1(lo - hi);
    };
    if (a >= 0.0) return side(a, b);
    if (b <= 0.0) return side(-b, -a);
    return side(0.0, -a) + side(0.0, b);
}

// The release g·k is below the grid point e iff the unrounded value is below e − g/2: bin edges
// are grid points, and their probabilities are those of the continuous noise at edge − g/2.
double to_grid(double v, double g) { return std::round(v / g) * g; }

struct Binned {
    std::vector<double> edges;  // interior edges, in noise units relative to the value, grid-aligned
    std::vector<double> counts;
};

template <class Draw>
std::vector<double> count_in_bins(const std::vector<double>& release_edges, std::size_t n, Draw draw) {
    std::vector<double> counts(release_edges.size() + 1, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const double r = draw();
        counts[static_cast<std::size_t>(std::upper_bound(release_edges.begin(), release_edges.end(), r) -
                                        release_edges.begin())] += 1.0;
    }
    return counts;
}

bool on_grid(double r, double g) { return std::trunc(r / g) == r / g; }

// The grid rounding straight from its definition, in GMP rationals: the draw's digits leave
// Z in ±(K + [m, m + 1)/2^n); t = (x + scale·Z)/g + 1/2 then spans an interval whose ends are
// computed exactly; k = ⌊t⌋ at its lower end, and no integer may lie strictly inside.
double rounding_from_definition(const dpbo::privacy::detail::GridProblem& problem,
                                const dpbo::privacy::detail::ExactDraw& draw) {
    const std::size_t n = draw.fraction.known();
    mpz_class m = 0;
    for (std::size_t i = 0; i < n; ++i) m = 2 * m + (draw.fraction.known_digit(i) ? 1 : 0);
    mpz_class two_n = 1;
    mpz_mul_2exp(two_n.get_mpz_t(), two_n.get_mpz_t(), n);
    const mpq_class near_end(mpz_class(static_cast<unsigned long>(draw.integer)) * two_n + m, two_n);
    const mpq_class far_end(mpz_class(static_cast<unsigned long>(draw.integer)) * two_n + m + 1, two_n);
    mpq_class g = 1;
    if (problem.grid_exponent >= 0)
        mpq_mul_2exp(g.get_mpq_t(), g.get_mpq_t(), problem.grid_exponent);
    else
        mpq_div_2exp(g.get_mpq_t(), g.get_mpq_t(), -problem.grid_exponent);
    const mpq_class x(problem.value);
    const mpq_class scale(problem.scale);
    const mpq_class sign = draw.negative ? -1 : 1;
    mpq_class a = (x + scale * sign * near_end) / g + mpq_class(1, 2);
    mpq_class b = (x + scale * sign * far_end) / g + mpq_class(1, 2);
    if (b < a) std::swap(a, b);
    mpz_class k;
    mpz_fdiv_q(k.get_mpz_t(), a.get_num_mpz_t(), a.get_den_mpz_t());
    REQUIRE(mpq_class(k + 1) >= b);  // decided: (a, b) holds no integer
    return dpbo::privacy::detail::nearest_double(k, problem.grid_exponent);
}

}  // namespace

TEST_CASE("secure sampling: the grid is a power of two from the noise scale alone, and refuses what has none") {
    CHECK(privacy::release_grid(1.0) == std::ldexp(1.0, -40));
    CHECK(privacy::release_grid(0.75) == std::ldexp(1.0, -40));  // ⌈log2 0.75⌉ = 0
    CHECK(privacy::release_grid(2.0) == std::ldexp(1.0, -39));
    CHECK(privacy::release_grid(3.0) == std::ldexp(1.0, -38));
    CHECK(privacy::release_grid(std::ldexp(1.0, -982)) == std::ldexp(1.0, -1022));
    CHECK(privacy::release_grid(std::ldexp(1.0, 999)) == std::ldexp(1.0, 959));
    for (double bad : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                       std::ldexp(1.0, -983), 1e301}) {
        CAPTURE(bad);
        CHECK_THROWS_WITH_AS(privacy::release_grid(bad, "mechanism 'x': sigma"),
                             doctest::Contains("mechanism 'x': sigma = "), dpbo::ValidationError);
    }
    auto noise = dpbo::PrivacyNoiseSource::from_seed(1);
    CHECK_THROWS_WITH_AS(privacy::gaussian_release(std::numeric_limits<double>::quiet_NaN(), 1.0, noise),
                         doctest::Contains("not finite (its value is not shown"), dpbo::RunError);
    CHECK_THROWS_WITH_AS(privacy::laplace_release(arma::vec{1.0, std::numeric_limits<double>::infinity()}, 1.0, noise),
                         doctest::Contains("coordinate 1"), dpbo::RunError);
    CHECK_THROWS_AS(privacy::discrete_laplace_release(0.5, {1.0, 1.0}, noise), dpbo::RunError);
    CHECK_THROWS_WITH_AS(privacy::discrete_laplace_release(0.0, {0.0, 1.0}, noise), doctest::Contains("decay"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(privacy::bernoulli_exp_minus({-1.0, 1.0}, noise), doctest::Contains("gamma"),
                         dpbo::ValidationError);
    CHECK_THROWS_AS(privacy::uniform_below(0, noise), dpbo::ValidationError);
}

TEST_CASE("secure sampling: gaussian releases follow the rounded N(x, sigma^2) exactly") {
    constexpr std::size_t n = 200000;
    const std::vector<double> sigmas = {1.0, 0.3, 2.0, 1e6, 3e-7};
    const std::vector<double> values = {0.0, 0.1, 1.0 / 3.0, -2718.28, 0.1};
    std::uint64_t seed = 100;
    for (std::size_t c = 0; c < sigmas.size(); ++c) {
        const double sigma = sigmas[c];
        const double x = values[c];
        const double g = privacy::release_grid(sigma);
        // Edges every half σ over ±4σ; the two outer bins expect n·Φ(−4) ≈ 6.3 each.
        std::vector<double> edges;
        std::vector<double> probabilities;
        double previous = -std::numeric_limits<double>::infinity();
        for (int i = -8; i <= 8; ++i) {
            const double edge = to_grid(x + sigma * 0.5 * i, g);
            edges.push_back(edge);
            const double z = ((edge - x) - g / 2) / sigma;
            probabilities.push_back(normal_between(previous, z));
            previous = z;
        }
        probabilities.push_back(normal_between(previous, std::numeric_limits<double>::infinity()));
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        bool all_on_grid = true;
        const auto counts = count_in_bins(edges, n, [&] {
            const double r = privacy::gaussian_release(x, sigma, noise);
            all_on_grid = all_on_grid && on_grid(r, g);
            return r;
        });
        CAPTURE(sigma);
        CAPTURE(x);
        CHECK(all_on_grid);
        check_chi_square(counts, probabilities, n,
                         "gaussian sigma = " + std::to_string(sigma) + ", x = " + std::to_string(x));
    }
}

TEST_CASE("secure sampling: laplace releases follow the rounded Laplace(x, b) exactly") {
    constexpr std::size_t n = 200000;
    const std::vector<double> scales = {1.0, 4.0, 0.1, 12345.678};
    const std::vector<double> values = {0.0, 0.1, 1.0 / 3.0, -5.5};
    std::uint64_t seed = 200;
    for (std::size_t c = 0; c < scales.size(); ++c) {
        const double b = scales[c];
        const double x = values[c];
        const double g = privacy::release_grid(b);
        // Edges every b over ±8b; the outer bins expect n·e^−8/2 ≈ 34 each.
        std::vector<double> edges;
        std::vector<double> probabilities;
        double previous = -std::numeric_limits<double>::infinity();
        for (int i = -8; i <= 8; ++i) {
            const double edge = to_grid(x + b * i, g);
            edges.push_back(edge);
            const double l = ((edge - x) - g / 2) / b;
            probabilities.push_back(laplace_between(previous, l));
            previous = l;
        }
        probabilities.push_back(laplace_between(previous, std::numeric_limits<double>::infinity()));
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        bool all_on_grid = true;
        const auto counts = count_in_bins(edges, n, [&] {
            const double r = privacy::laplace_release(x, b, noise);
            all_on_grid = all_on_grid && on_grid(r, g);
            return r;
        });
        CAPTURE(b);
        CAPTURE(x);
        CHECK(all_on_grid);
        check_chi_square(counts, probabilities, n, "laplace b = " + std::to_string(b) + ", x = " + std::to_string(x));
    }
}

TEST_CASE("secure sampling: the gaussian tail beyond 8.7 sigma, through the same sampler") {
    // Plain sampling never gets there (P(|Z| > 8.7) ≈ 3e-18); the tail hook draws Z conditioned on
    // ⌊|Z|⌋ ≥ K0, whose law is φ restricted to |z| ≥ K0, renormalised by 2Q(K0).
    constexpr std::size_t n = 60000;
    struct Case {
        std::uint32_t k0;
        double sigma;
        double x;
        std::vector<double> z_edges;  // positive side; mirrored
    };
    const std::vector<Case> cases = {
        {8, 1.0, 0.1, {8.02, 8.05, 8.1, 8.2, 8.35, 8.5, 8.7, 8.85}},
        {9, 2.5, 1.0 / 3.0, {9.02, 9.05, 9.1, 9.2, 9.35, 9.5, 9.7}},
        {20, 1e-3, -7.0, {20.01, 20.02, 20.04, 20.07, 20.1, 20.15}},
    };
    std::uint64_t seed = 300;
    for (const auto& c : cases) {
        const double g = privacy::release_grid(c.sigma);
        const double k0 = c.k0;
        const double mass = 2.0 * normal_upper(k0);
        // Bins: (−∞, −e_last), ..., [−e_1, −K0 + ...), then the mirror; |z| < K0 cannot occur.
        std::vector<double> z_edges;
        for (auto it = c.z_edges.rbegin(); it != c.z_edges.rend(); ++it) z_edges.push_back(-*it);
        z_edges.push_back(0.0);
        for (double e : c.z_edges) z_edges.push_back(e);
        std::vector<double> edges;
        std::vector<double> probabilities;
        double previous = -std::numeric_limits<double>::infinity();
        for (double ze : z_edges) {
            const double edge = to_grid(c.x + c.sigma * ze, g);
            edges.push_back(edge);
            double z = ((edge - c.x) - g / 2) / c.sigma;
            // The gap (−K0, K0) has no mass: clip the bin ends to it.
            const double lo = previous;
            const double hi = z;
            const auto tail_part = [&](double a, double b) {
                double p = 0.0;
                if (a < -k0) p += normal_between(a, std::min(b, -k0));
                if (b > k0) p += normal_between(std::max(a, k0), b);
                return p / mass;
            };
            probabilities.push_back(tail_part(lo, hi));
            previous = z;
        }
        probabilities.push_back(normal_between(std::max(previous, k0), std::numeric_limits<double>::infinity()) / mass);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        double smallest = std::numeric_limits<double>::infinity();
        const auto counts = count_in_bins(edges, n, [&] {
            const double r = privacy::gaussian_release_tail(c.x, c.sigma, c.k0, noise);
            smallest = std::min(smallest, std::abs(r - c.x) / c.sigma);
            return r;
        });
        CAPTURE(c.k0);
        CHECK(smallest >= k0 - 1e-9);
        check_chi_square(counts, probabilities, n, "gaussian tail K0 = " + std::to_string(c.k0));
    }
}

TEST_CASE("secure sampling: the laplace tail beyond 37 b, through the same sampler") {
    // E | ⌊E⌋ ≥ K0 is K0 + Exp(1): bins in |L| − K0, both signs.
    constexpr std::size_t n = 60000;
    std::uint64_t seed = 400;
    for (const auto& [k0, b, x] :
         std::vector<std::tuple<std::uint32_t, double, double>>{{37, 1.0, 0.1}, {40, 0.25, 1.0 / 3.0}}) {
        const double g = privacy::release_grid(b);
        const double kk = k0;
        std::vector<double> l_edges;
        for (double e : {6.0, 4.0, 3.0, 2.0, 1.5, 1.0, 0.6, 0.3}) l_edges.push_back(-kk - e);
        l_edges.push_back(0.0);
        for (double e : {0.3, 0.6, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0}) l_edges.push_back(kk + e);
        std::vector<double> edges;
        std::vector<double> probabilities;
        double previous = -std::numeric_limits<double>::infinity();
        // The conditional law of L = ±E: density ½e^−(|l| − K0) on |l| ≥ K0.
        const auto between = [&](double a, double c_) {
            double p = 0.0;
            if (a < -kk) p += laplace_between(a + kk, std::min(c_, -kk) + kk);  // shifted left side
            if (c_ > kk) p += laplace_between(std::max(a, kk) - kk, c_ - kk);
            return p;
        };
        for (double le : l_edges) {
            const double edge = to_grid(x + b * le, g);
            edges.push_back(edge);
            const double l = ((edge - x) - g / 2) / b;
            probabilities.push_back(between(previous, l));
            previous = l;
        }
        probabilities.push_back(between(previous, std::numeric_limits<double>::infinity()));
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        double smallest = std::numeric_limits<double>::infinity();
        const auto counts = count_in_bins(edges, n, [&] {
            const double r = privacy::laplace_release_tail(x, b, k0, noise);
            smallest = std::min(smallest, std::abs(r - x) / b);
            return r;
        });
        CAPTURE(k0);
        CHECK(smallest >= kk - 1e-9);
        check_chi_square(counts, probabilities, n, "laplace tail K0 = " + std::to_string(k0));
    }
}

TEST_CASE("secure sampling: releases for x and x + m·g are the same draws shifted by m·g") {
    // Shifting by whole grid steps moves every cell boundary by the same integer, so the same
    // keystream gives the same k + m — the distribution is exactly translated.
    for (const auto& [x, sigma, m] : std::vector<std::tuple<double, double, double>>{
             {1.0 / 3.0, 1.0, 12345.0}, {0.1, 2.0, -777.0}, {-2.5, 1e-3, 3.0}}) {
        const double g = privacy::release_grid(sigma);
        const double shifted = x + m * g;
        REQUIRE(shifted - x == m * g);  // exact in double
        auto a = dpbo::PrivacyNoiseSource::from_seed(500);
        auto b = dpbo::PrivacyNoiseSource::from_seed(500);
        auto c = dpbo::PrivacyNoiseSource::from_seed(501);
        auto d = dpbo::PrivacyNoiseSource::from_seed(501);
        for (int i = 0; i < 2000; ++i) {
            CAPTURE(i);
            REQUIRE(privacy::gaussian_release(shifted, sigma, b) == privacy::gaussian_release(x, sigma, a) + m * g);
            REQUIRE(privacy::laplace_release(shifted, sigma, d) == privacy::laplace_release(x, sigma, c) + m * g);
        }
    }
}

TEST_CASE("secure sampling: neighbouring inputs give releases with the same set of low bits") {
    // What broke before (Mironov 2012): x + floating-point noise reaches different sets of doubles
    // for different x. Here (a) with a grid coarser than the values' ulp every release is a multiple
    // of g for both inputs and the low bits of k take every value; (b) with a grid finer than the
    // ulp the last mantissa bits take every value for both.
    constexpr int n = 40000;
    {
        const double sigma = 2.0;
        const double g = privacy::release_grid(sigma);
        std::set<std::uint64_t> low[2];
        bool below_grid_zero = true;
        for (int side = 0; side < 2; ++side) {
            auto noise = dpbo::PrivacyNoiseSource::from_seed(600 + side);
            const double x = side == 0 ? 0.1 : 1.1;
            for (int i = 0; i < n; ++i) {
                const double r = privacy::gaussian_release(x, sigma, noise);
                below_grid_zero = below_grid_zero && on_grid(r, g);
                low[side].insert(static_cast<std::uint64_t>(static_cast<std::int64_t>(r / g)) & 0xFFU);
            }
        }
        CHECK(below_grid_zero);
        CHECK(low[0].size() == 256);
        CHECK(low[0] == low[1]);
    }
    {
        const double sigma = 4e-6;  // grid 2^-57, finer than ulp(1.1) = 2^-52
        std::set<std::uint64_t> low[2];
        for (int side = 0; side < 2; ++side) {
            auto noise = dpbo::PrivacyNoiseSource::from_seed(610 + side);
            const double x = side == 0 ? 1.1 : 1.1 + 1e-6;
            for (int i = 0; i < n; ++i) {
                const double r = privacy::gaussian_release(x, sigma, noise);
                REQUIRE(r >= 1.0);
                REQUIRE(r < 2.0);
                low[side].insert(std::bit_cast<std::uint64_t>(r) & 0xFFU);
            }
        }
        CHECK(low[0].size() == 256);
        CHECK(low[0] == low[1]);
    }
}

TEST_CASE("secure sampling: bernoulli(exp(-gamma)) for rational gamma, including gamma > 1") {
    constexpr std::size_t n = 100000;
    std::uint64_t seed = 700;
    auto zero = dpbo::PrivacyNoiseSource::from_seed(seed++);
    for (int i = 0; i < 1000; ++i) REQUIRE(privacy::bernoulli_exp_minus({0.0, 1.0}, zero));
    for (const auto& gamma :
         std::vector<privacy::Ratio>{{1.0, 3.0}, {1.0, 1.0}, {5.0, 2.0}, {7.0, 1.0}, {0.1, 3.0}, {1e-3, 3e-4}}) {
        const double p = std::exp(-gamma.numerator / gamma.denominator);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        double heads = 0.0;
        for (std::size_t i = 0; i < n; ++i) heads += privacy::bernoulli_exp_minus(gamma, noise) ? 1.0 : 0.0;
        check_chi_square(
            {heads, n - heads}, {p, 1.0 - p}, n,
            "bernoulli exp(-" + std::to_string(gamma.numerator) + "/" + std::to_string(gamma.denominator) + ")");
    }
}

TEST_CASE("secure sampling: discrete laplace with a rational decay") {
    constexpr std::size_t n = 100000;
    std::uint64_t seed = 800;
    for (const auto& decay : std::vector<privacy::Ratio>{{1.0, 2.0}, {0.1, 1.0}, {3.0, 1.0}, {1.0, 3.0}}) {
        const double rate = decay.numerator / decay.denominator;
        const double alpha = std::exp(-rate);
        const double p0 = -std::expm1(-rate) / (1.0 + alpha);  // (1 − α)/(1 + α)
        // |z| ≤ K one bin each, |z| > K pooled per side: P(Z > K) = α^(K+1)/(1 + α).
        int largest = 0;
        while (n * p0 * std::exp(-rate * (largest + 1)) >= 5.0 &&
               n * std::exp(-rate * (largest + 2)) / (1.0 + alpha) >= 5.0)
            ++largest;
        std::vector<double> probabilities;
        const double tail = std::exp(-rate * (largest + 1)) / (1.0 + alpha);
        probabilities.push_back(tail);
        for (int z = -largest; z <= largest; ++z) probabilities.push_back(p0 * std::exp(-rate * std::abs(z)));
        probabilities.push_back(tail);
        std::vector<double> counts(probabilities.size(), 0.0);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        for (std::size_t i = 0; i < n; ++i) {
            const double z = privacy::discrete_laplace_release(0.0, decay, noise);
            const double clipped = std::clamp(z, -largest - 1.0, largest + 1.0);
            counts[static_cast<std::size_t>(clipped + largest + 1)] += 1.0;
        }
        check_chi_square(counts, probabilities, n, "discrete laplace decay " + std::to_string(rate));
    }
    // The release is value + Z exactly, also where doubles are sparse: 2^60 + Z rounds once.
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
    const double big = std::ldexp(1.0, 60);
    for (int i = 0; i < 100; ++i) {
        const double r = privacy::discrete_laplace_release(big, {1.0, 1.0}, noise);
        CHECK(std::abs(r - big) <= 256.0 * 40);  // |Z| < 40 here; r is 2^60 + Z rounded to a multiple of 256
        CHECK(std::fmod(r, 256.0) == 0.0);
    }
}

TEST_CASE("secure sampling: uniform integers by rejection") {
    constexpr std::size_t n = 100000;
    std::uint64_t seed = 900;
    auto one = dpbo::PrivacyNoiseSource::from_seed(seed++);
    for (int i = 0; i < 100; ++i) REQUIRE(privacy::uniform_below(1, one) == 0);
    for (std::uint64_t bound : {2ULL, 3ULL, 7ULL, 1000ULL}) {
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
        std::vector<double> counts(bound, 0.0);
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t v = privacy::uniform_below(bound, noise);
            REQUIRE(v < bound);
            counts[v] += 1.0;
        }
        check_chi_square(counts, std::vector<double>(bound, 1.0 / static_cast<double>(bound)), n,
                         "uniform below " + std::to_string(bound));
    }
    // 3·2^62 rejects a quarter of its 64-bit candidates; its thirds are equally likely.
    const std::uint64_t bound = 3ULL << 62;
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed++);
    std::vector<double> thirds(3, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t v = privacy::uniform_below(bound, noise);
        REQUIRE(v < bound);
        thirds[v >> 62] += 1.0;
    }
    check_chi_square(thirds, {1.0 / 3, 1.0 / 3, 1.0 / 3}, n, "uniform below 3·2^62");
}

TEST_CASE("secure sampling: the 128-bit grid rounding agrees with the GMP one wherever it decides") {
    namespace detail = dpbo::privacy::detail;
    auto noise = dpbo::PrivacyNoiseSource::from_seed(1000);
    detail::RandomBits bits(noise);
    const std::vector<double> values = {0.0,    0.1,     1.0 / 3.0, -1.0 / 3.0, -7.5,
                                        1e-300, -5e-324, 1e20,      -3.0e15,    0x1.fffffffffffffp1};
    const std::vector<double> scales = {1.0, 0.3, 2.0, 1e-5, 3e7, std::ldexp(1.0, -900), std::ldexp(0.75, 900)};
    std::size_t decided = 0;
    std::size_t undecided = 0;
    for (double value : values) {
        for (double scale : scales) {
            const detail::GridProblem problem{value, scale, std::ilogb(privacy::release_grid(scale))};
            for (int trial = 0; trial < 300; ++trial) {
                detail::ExactDraw draw;
                draw.negative = bits.bit();
                draw.integer = bits.uniform_below(64);
                // From too few digits to decide to the most the fixed width holds.
                draw.fraction.extend_to(20 + bits.uniform_below(45), bits);
                const auto fixed = detail::round_fixed_width(problem, draw);
                const auto exact = detail::round_bignum(problem, draw);
                CAPTURE(value);
                CAPTURE(scale);
                CAPTURE(draw.fraction.known());
                REQUIRE(fixed.outcome != detail::RoundingOutcome::out_of_range);
                REQUIRE((fixed.outcome == detail::RoundingOutcome::decided) ==
                        (exact.outcome == detail::RoundingOutcome::decided));
                if (fixed.outcome == detail::RoundingOutcome::decided) {
                    REQUIRE(fixed.release == exact.release);
                    REQUIRE(fixed.release == rounding_from_definition(problem, draw));
                    ++decided;
                } else {
                    ++undecided;
                }
            }
        }
    }
    MESSAGE("decided " << decided << ", undecided " << undecided);
    CHECK(decided > 1000);
    CHECK(undecided > 1000);
}

TEST_CASE("secure sampling: the GMP path's rounding to double is the correctly rounded one (MPFR)") {
    namespace detail = dpbo::privacy::detail;
    auto noise = dpbo::PrivacyNoiseSource::from_seed(1100);
    detail::RandomBits bits(noise);
    mpfr_t reference;
    mpfr_init2(reference, 4096);
    for (int trial = 0; trial < 5000; ++trial) {
        // Integers of 1 to 200 bits, half of them with a tie pattern below bit 53, random signs.
        const unsigned width = 1 + static_cast<unsigned>(bits.uniform_below(200));
        mpz_class k = 1;
        for (unsigned i = 1; i < width; ++i) k = 2 * k + (bits.bit() ? 1 : 0);
        if (width > 54 && bits.bit()) {
            mpz_fdiv_q_2exp(k.get_mpz_t(), k.get_mpz_t(), width - 54);
            k = 2 * k + 1;
            mpz_mul_2exp(k.get_mpz_t(), k.get_mpz_t(), width - 55);
        }
        if (bits.bit()) k = -k;
        const long exponent = static_cast<long>(bits.uniform_below(2200)) - 1022 - 200 + 1;
        const long clamped = std::max(exponent, -1022L);
        mpfr_set_z(reference, k.get_mpz_t(), MPFR_RNDN);
        mpfr_mul_2si(reference, reference, clamped, MPFR_RNDN);
        const double expected = mpfr_get_d(reference, MPFR_RNDN);
        CAPTURE(trial);
        REQUIRE(detail::nearest_double(k, clamped) == expected);
    }
    mpfr_clear(reference);
}
