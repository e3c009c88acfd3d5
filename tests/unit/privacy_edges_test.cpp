// Statements at the edges of the parameter range: computed correctly or refused by name, never a
// claim the noise does not achieve (issue: mu = 1e-320 released nulls with exit 0; epsilon = delta
// = 1e-300 claimed a delta 5.6e16 times smaller than achieved).
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "dpbo/math/normal.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "test_support.hpp"

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("gdp_delta_upper_bound: an upper bound within 1e-9 of gdp_delta where doubles are accurate") {
    for (const double mu : {0.1, 0.5, 1.0, 2.0, 6.0}) {
        for (const double epsilon : {0.0, 0.5, 1.0, 3.0, 10.0}) {
            CAPTURE(mu);
            CAPTURE(epsilon);
            const double reference = dpbo::gdp_delta(mu, epsilon);
            const double bound = dpbo::gdp_delta_upper_bound(mu, epsilon);
            if (reference == 0.0) {  // underflow: the bound may keep a denormal, no more
                CHECK(bound <= 1e-300);
                continue;
            }
            // The double evaluation is accurate to about 1e-12 relative here, less deep in the tails.
            CHECK(bound == doctest::Approx(reference).epsilon(1e-9).scale(0));
        }
    }
}

TEST_CASE("gdp_delta_upper_bound: where the two terms cancel it keeps the digits doubles lose") {
    // μ tiny: δ(ε) = Φ(μ/2 − r) − e^ε Φ(−μ/2 − r), r = ε/μ, is μφ(r) − εΦ(−r) to first order; both
    // products are far from underflow even though each Φ term is about ½.
    const double mu = 2.5e-300;
    const double epsilon = 1e-300;
    const double r = epsilon / mu;
    const double first_order = mu * dpbo::normal_pdf(r) - epsilon * dpbo::normal_cdf(-r);
    CHECK(dpbo::gdp_delta(mu, epsilon) != doctest::Approx(first_order).epsilon(1e-3).scale(0));  // doubles fail
    CHECK(dpbo::gdp_delta_upper_bound(mu, epsilon) == doctest::Approx(first_order).epsilon(1e-9).scale(0));
}

TEST_CASE("gaussian: mu so small that sigma is infinite is refused, naming mu") {
    auto mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1e-320"}});
    try {
        mechanism->calibrate(1.0);
        FAIL("calibrate accepted mu = 1e-320");
    } catch (const dpbo::ValidationError& e) {
        CHECK(contains(e.what(), "mu = 1e-320"));
        CHECK(contains(e.what(), "σ = inf"));
    }
    CHECK_FALSE(mechanism->calibrated());
}

TEST_CASE("gaussian: epsilon = delta = 1e-300 calibrates a sigma that achieves delta = 1e-300") {
    auto mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"epsilon", "1e-300"}, {"delta", "1e-300"}});
    mechanism->calibrate(1.0);
    const double sigma = mechanism->noise_scale();
    const double mu = 1.0 / sigma;
    const double r = 1e-300 / mu;
    // The first-order δ of this tiny μ (see above), independent of the code under test.
    const double achieved = mu * dpbo::normal_pdf(r) - 1e-300 * dpbo::normal_cdf(-r);
    CHECK(achieved <= 1e-300 * (1.0 + 1e-9));
    CHECK(achieved >= 1e-300 * 0.999);  // and σ is not needlessly large
    const auto statement = mechanism->guarantee();
    CHECK(statement.epsilon == 1e-300);
    CHECK(statement.delta == 1e-300);
}

TEST_CASE("gdp_epsilon: the epsilon of a tiny mu is checked on the exact bound") {
    // δ(0) ≈ μφ(0) ≈ 4e−301 exceeds the target, though the double evaluation reads it as 0.
    const double mu = 1e-300;
    const double delta = 1e-301;
    CHECK(dpbo::gdp_delta(mu, 0.0) <= delta);
    const double epsilon = dpbo::gdp_epsilon(mu, delta);
    CHECK(epsilon > 0.0);
    CHECK(dpbo::gdp_delta_upper_bound(mu, epsilon) <= delta);
    // First order in μ: δ(ε) = μφ(r) − εΦ(−r) with r = ε/μ, independent of the code under test.
    const double r = epsilon / mu;
    CHECK(mu * dpbo::normal_pdf(r) - epsilon * dpbo::normal_cdf(-r) <= delta * (1.0 + 1e-9));
}
