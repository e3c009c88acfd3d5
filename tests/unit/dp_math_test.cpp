// Closed forms of dp_math against reference values computed independently with mpmath 1.3.0 at 40
// significant digits (mp.dps = 40), e.g. for δ:
//   ncdf(-e/mu + mu/2) - exp(e) * ncdf(-e/mu - mu/2)
// and for log Φ: log(ncdf(x)); gdp_epsilon references with findroot on the same δ expression.
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/math/normal.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"

namespace {

// Relative comparison: the references carry 20 digits, the code double precision.
bool close_relative(double actual, double expected, double tolerance) {
    return std::abs(actual - expected) <= tolerance * std::abs(expected);
}

}  // namespace

TEST_CASE("normal_cdf matches the error function identity and known values") {
    CHECK(dpbo::normal_cdf(0.0) == 0.5);
    // Φ(1.959963984540054) = 0.975, the familiar two-sided 95% quantile.
    CHECK(close_relative(dpbo::normal_cdf(1.959963984540054), 0.975, 1e-14));
    // Φ(−5) = 2.866515718791939e−7 (mpmath).
    CHECK(close_relative(dpbo::normal_cdf(-5.0), 2.8665157187919391167e-7, 1e-13));
    CHECK(dpbo::normal_cdf(-40.0) == 0.0);  // underflows: why log_normal_cdf exists
}

TEST_CASE("log_normal_cdf agrees with log(normal_cdf) where both are representable") {
    for (double x : {-19.5, -10.0, -5.0, -3.0, -1.0, 0.0, 0.5, 2.0}) {
        CAPTURE(x);
        CHECK(close_relative(dpbo::log_normal_cdf(x), std::log(dpbo::normal_cdf(x)), 1e-13));
    }
}

TEST_CASE("log_normal_cdf matches high-precision references across the tails") {
    struct Reference {
        double x;
        double log_cdf;
    };
    // log Φ(x) from mpmath at 40 digits.
    const std::vector<Reference> references = {
        {-40.0, -804.60844201375378817},  {-20.0, -203.91715537109726394},    {-10.0, -53.231285150512470578},
        {-5.0, -15.064998393988725736},   {-1.0, -1.8410216450092635058},     {0.0, -0.69314718055994530942},
        {3.0, -0.0013508099647481937988}, {10.0, -7.6198530241605260704e-24},
    };
    for (const auto& reference : references) {
        CAPTURE(reference.x);
        CHECK(std::isfinite(dpbo::log_normal_cdf(reference.x)));
        CHECK(close_relative(dpbo::log_normal_cdf(reference.x), reference.log_cdf, 1e-13));
    }
}

TEST_CASE("log_normal_cdf at -40 equals the leading asymptotic value up to its known correction") {
    // log Φ(x) = −x²/2 − log(−x) − ½log(2π) + log(1 − 1/x² + 3/x⁴ − ...); at x = −40 the bracket
    // is 1 − 6.25e−4 + 1.17e−6 − ..., so the three-term value is accurate to ~3e−9 in the log.
    const double x = -40.0;
    const double series = 1.0 - 1.0 / (x * x) + 3.0 / std::pow(x, 4);
    const double asymptotic = -0.5 * x * x - std::log(-x) - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(series);
    CHECK(std::abs(dpbo::log_normal_cdf(x) - asymptotic) < 1e-8);
    // Continuity across the switch from erfc to the series.
    CHECK(close_relative(dpbo::log_normal_cdf(std::nextafter(-20.0, -30.0)), dpbo::log_normal_cdf(-20.0), 1e-14));
    CHECK(dpbo::log_normal_cdf(-1e6) < -4.9e11);
    CHECK(std::isfinite(dpbo::log_normal_cdf(-1e6)));
}

TEST_CASE("gdp_delta matches closed-form references") {
    struct Reference {
        double mu;
        double epsilon;
        double delta;
    };
    const std::vector<Reference> references = {
        // μ = 1, ε = 0: Φ(0.5) − Φ(−0.5).
        {1.0, 0.0, 0.38292492254802620728},
        // Φ(−0.5) − e·Φ(−1.5).
        {1.0, 1.0, 0.1269367375066439458},
        // Φ(−3.75) − e²·Φ(−4.25): two tail values of similar size, a cancellation test.
        {0.5, 2.0, 9.4391686349472337585e-6},
        // Φ(−0.5) − e³·Φ(−2.5).
        {2.0, 3.0, 0.18381307654447215597},
        {1.0, 5.0, 5.7937216919194941042e-7},
    };
    for (const auto& reference : references) {
        CAPTURE(reference.mu);
        CAPTURE(reference.epsilon);
        CHECK(close_relative(dpbo::gdp_delta(reference.mu, reference.epsilon), reference.delta, 1e-11));
    }
}

TEST_CASE("gdp_delta decreases in epsilon and increases in mu") {
    double previous = 1.0;
    for (double epsilon = 0.0; epsilon <= 10.0; epsilon += 0.25) {
        const double delta = dpbo::gdp_delta(1.0, epsilon);
        CAPTURE(epsilon);
        CHECK(delta < previous);
        CHECK(delta >= 0.0);
        previous = delta;
    }
    previous = 0.0;
    for (double mu = 0.1; mu <= 5.0; mu += 0.1) {
        const double delta = dpbo::gdp_delta(mu, 1.0);
        CAPTURE(mu);
        CHECK(delta > previous);
        CHECK(delta < 1.0);
        previous = delta;
    }
}

TEST_CASE("gdp_delta does not overflow at large epsilon") {
    // e^800 overflows a double; the product e^ε Φ(·) must not.
    for (double mu : {0.5, 1.0, 10.0, 100.0}) {
        CAPTURE(mu);
        const double delta = dpbo::gdp_delta(mu, 800.0);
        CHECK(std::isfinite(delta));
        CHECK(delta >= 0.0);
        CHECK(delta <= dpbo::gdp_delta(mu, 10.0));
    }
    // With μ = 100, δ(800) = Φ(42) − exp(800 + log Φ(−58)) = 1 − exp(800 − 1686.98): the naive
    // e^800 · Φ(−58) would be inf · 0.
    CHECK(dpbo::gdp_delta(100.0, 800.0) > 0.99);
}

TEST_CASE("gdp_epsilon matches references and never undershoots the target delta") {
    // mpmath findroot on the δ expression above.
    CHECK(close_relative(dpbo::gdp_epsilon(1.0, 1e-5), 4.3771780956812246277, 1e-9));
    CHECK(close_relative(dpbo::gdp_epsilon(0.5, 1e-5), 1.9930914044151196311, 1e-9));

    for (double mu : {0.1, 0.5, 1.0, 2.0, 8.0, 50.0}) {
        for (double target : {1e-3, 1e-5, 1e-10}) {
            CAPTURE(mu);
            CAPTURE(target);
            const double epsilon = dpbo::gdp_epsilon(mu, target);
            CHECK(dpbo::gdp_delta(mu, epsilon) <= target);
            if (epsilon > 1e-6) CHECK(dpbo::gdp_delta(mu, epsilon - 1e-6) > target);
        }
    }
}

TEST_CASE("gdp_epsilon returns zero when delta at epsilon zero already meets the target") {
    // δ(0) for μ = 1 is 0.3829...; any target at or above it is met by ε = 0.
    CHECK(dpbo::gdp_epsilon(1.0, 0.5) == 0.0);
    CHECK(dpbo::gdp_epsilon(1.0, 0.38) > 0.0);
}

TEST_CASE("compose_gdp is the root of the sum of squares") {
    CHECK(dpbo::compose_gdp({0.5}) == 0.5);
    CHECK(close_relative(dpbo::compose_gdp({0.5, 0.5, 0.5, 0.5, 0.5}), std::sqrt(1.25), 1e-15));
    CHECK(close_relative(dpbo::compose_gdp({3.0, 4.0}), 5.0, 1e-15));
    CHECK(dpbo::compose_gdp({0.0, 0.0}) == 0.0);
    // Squaring 1e200 overflows; the result must not.
    CHECK(close_relative(dpbo::compose_gdp({3e200, 4e200}), 5e200, 1e-15));
    // T equal steps of μ/√T compose back to μ: DP-GIBO's per-step budget.
    const std::vector<double> steps(150, 2.0 / std::sqrt(150.0));
    CHECK(close_relative(dpbo::compose_gdp(steps), 2.0, 1e-13));
}

TEST_CASE("smallest_satisfying brackets a threshold from above") {
    const auto holds = [](double x) { return x >= std::numbers::pi; };
    const double found = dpbo::smallest_satisfying(holds, 0.0, 10.0, 1e-12);
    CHECK(found >= std::numbers::pi);
    CHECK(found - std::numbers::pi <= 1e-12);
    CHECK(dpbo::smallest_satisfying(holds, 4.0, 10.0, 1e-12) == 4.0);
    CHECK_THROWS_AS(dpbo::smallest_satisfying(holds, 0.0, 3.0, 1e-12), dpbo::RunError);
}

TEST_CASE("dp_math refuses invalid arguments") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(dpbo::gdp_delta(0.0, 1.0), doctest::Contains("mu"), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_delta(-1.0, 1.0), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_delta(nan, 1.0), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_delta(inf, 1.0), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::gdp_delta(1.0, -0.1), doctest::Contains("epsilon"), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_delta(1.0, nan), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_delta(1.0, inf), dpbo::ValidationError);

    CHECK_THROWS_WITH_AS(dpbo::gdp_epsilon(0.0, 1e-5), doctest::Contains("mu"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::gdp_epsilon(1.0, 0.0), doctest::Contains("delta"), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_epsilon(1.0, 1.0), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::gdp_epsilon(1.0, nan), dpbo::ValidationError);

    CHECK_THROWS_AS(dpbo::compose_gdp({}), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::compose_gdp({0.5, -0.1}), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::compose_gdp({0.5, nan}), dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::compose_gdp({inf}), dpbo::ValidationError);
}
