// The pld accountant's numerics against closed forms: the Gaussian mechanism's exact δ(ε) (Balle &
// Wang 2018, Thm. 8) and the Laplace mechanism's lie between the optimistic and the pessimistic
// discretisation, alone and composed by FFT; the grid reads δ(ε) and ε(δ) consistently.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "grid_pld.hpp"
#include "mechanism_plds.hpp"
#include "normal_tail.hpp"
#include "pld_composition.hpp"

namespace {

using dpbo::pld::Estimate;

double phi(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

// δ(ε) of μ-GDP, the Gaussian mechanism with Δ/σ = μ.
double gaussian_delta(double mu, double epsilon) {
    return phi(-epsilon / mu + mu / 2) - std::exp(epsilon) * phi(-epsilon / mu - mu / 2);
}

dpbo::pld::GridPld composed_gaussian(double sigma, std::size_t times, Estimate estimate) {
    const dpbo::pld::PldPair pair = dpbo::pld::subsampled_gaussian_pld(sigma, 1.0, {1e-4, -50, estimate});
    return dpbo::pld::self_compose(pair.remove, times, estimate, 1e-15);
}

}  // namespace

TEST_CASE("pld: log Φ far in the tail and its inverse") {
    CHECK(dpbo::pld::log_normal_cdf(-3.0) == doctest::Approx(std::log(phi(-3.0))).epsilon(1e-14));
    // Below −37 the series, against scipy.stats.norm.logcdf(-40) = −804.6084420137539.
    CHECK(dpbo::pld::log_normal_cdf(-40.0) == doctest::Approx(-804.6084420137538).epsilon(1e-13));
    CHECK(dpbo::pld::log_normal_cdf(-36.999) == doctest::Approx(dpbo::pld::log_normal_cdf(-37.001)).epsilon(1e-3));
    const double x = dpbo::pld::normal_quantile_from_log(std::log(1e-10));
    CHECK(phi(x) == doctest::Approx(1e-10).epsilon(1e-9));
}

TEST_CASE("pld: the Gaussian's exact δ(ε) lies between the two discretisations, alone and composed") {
    for (const double sigma : {0.5, 1.0, 3.0}) {
        const dpbo::pld::Discretisation up{1e-4, -50, Estimate::Pessimistic};
        const dpbo::pld::Discretisation down{1e-4, -50, Estimate::Optimistic};
        const auto upper = dpbo::pld::subsampled_gaussian_pld(sigma, 1.0, up).remove;
        const auto lower = dpbo::pld::subsampled_gaussian_pld(sigma, 1.0, down).remove;
        for (const double epsilon : {0.0, 0.3, 1.0, 2.5, 5.0}) {
            CAPTURE(sigma);
            CAPTURE(epsilon);
            const double exact = gaussian_delta(1.0 / sigma, epsilon);
            CHECK(dpbo::pld::delta_for_epsilon(lower, epsilon) <= exact * (1 + 1e-9) + 1e-18);
            CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon) >= exact * (1 - 1e-9) - 1e-18);
        }
    }
    // 100 releases at σ = 10 compose to μ = 1 exactly; the FFT composition keeps both sides.
    const auto upper = composed_gaussian(10.0, 100, Estimate::Pessimistic);
    const auto lower = composed_gaussian(10.0, 100, Estimate::Optimistic);
    for (const double epsilon : {0.5, 1.0, 2.0, 3.0}) {
        CAPTURE(epsilon);
        const double exact = gaussian_delta(1.0, epsilon);
        CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon) >= exact);
        CHECK(dpbo::pld::delta_for_epsilon(lower, epsilon) - lower.excess_mass <= exact);
        // The connect-the-dots bound is tight: within 1e-3 relative of the truth at this grid.
        CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon) == doctest::Approx(exact).epsilon(1e-3));
    }
}

TEST_CASE("pld: the Laplace mechanism's δ(ε) = 1 − e^{ε/2 − 1/(2b)} lies between the discretisations") {
    const double b = 2.0;
    const auto upper = dpbo::pld::laplace_pld(b, {1e-4, -50, Estimate::Pessimistic}).remove;
    const auto lower = dpbo::pld::laplace_pld(b, {1e-4, -50, Estimate::Optimistic}).remove;
    for (const double epsilon : {0.0, 0.1, 0.3, 0.49}) {
        CAPTURE(epsilon);
        const double exact = -std::expm1(epsilon / 2 - 1 / (2 * b));
        CHECK(dpbo::pld::delta_for_epsilon(lower, epsilon) <= exact + 1e-15);
        CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon) >= exact - 1e-15);
    }
    // Pure 1/b-DP: no δ is needed beyond ε = 1/b on either side.
    CHECK(dpbo::pld::delta_for_epsilon(upper, 0.5 + 1e-4) == doctest::Approx(0.0));
}

TEST_CASE("pld: ε(δ) and δ(ε) read the grid consistently") {
    const auto upper = composed_gaussian(4.0, 50, Estimate::Pessimistic);
    for (const double delta : {1e-3, 1e-5, 1e-8}) {
        const double epsilon = dpbo::pld::epsilon_for_delta(upper, delta);
        CAPTURE(delta);
        CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon) <= delta * (1 + 1e-9));
        CHECK(dpbo::pld::delta_for_epsilon(upper, epsilon - 1e-3) > delta);
    }
    // Mass at +∞ above δ: no finite ε.
    auto with_infinity = upper;
    with_infinity.infinity_mass = 1e-4;
    CHECK(std::isinf(dpbo::pld::epsilon_for_delta(with_infinity, 1e-5)));
}

TEST_CASE("pld: truncating tails keeps each estimate on its side and the mass whole") {
    dpbo::pld::GridPld pld{1.0, -2, {1e-17, 0.25, 0.5, 0.25 - 2e-17, 1e-17}, 0.0, 0.0};
    auto pessimistic = pld;
    dpbo::pld::truncate_tails(pessimistic, 1e-15, Estimate::Pessimistic);
    CHECK(pessimistic.probs.size() == 3);
    CHECK(pessimistic.lower_index == -1);
    CHECK(pessimistic.infinity_mass == doctest::Approx(1e-17));
    CHECK(dpbo::pld::delta_for_epsilon(pessimistic, 0.5) >= dpbo::pld::delta_for_epsilon(pld, 0.5));
    auto optimistic = pld;
    dpbo::pld::truncate_tails(optimistic, 1e-15, Estimate::Optimistic);
    CHECK(optimistic.infinity_mass == 0.0);
    CHECK(dpbo::pld::delta_for_epsilon(optimistic, 0.5) <= dpbo::pld::delta_for_epsilon(pld, 0.5));
}
