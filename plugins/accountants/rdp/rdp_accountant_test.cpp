// The rdp accountant's numerics against closed forms, an independent exact-integer/MPFR evaluation
// of the Poisson-subsampled Gaussian's binomial expansion, a published value, and its invariants.
#include <doctest/doctest.h>

#include <cmath>
#include <gmp.h>
#include <mpfr.h>

#include "dpbo/errors.hpp"
#include "rdp_conversion.hpp"
#include "rdp_curve.hpp"
#include "rdp_mechanisms.hpp"
#include "subsampled_gaussian.hpp"

namespace {

using namespace dpbo::rdp;

// Reference: A_α = Σ_k C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2σ²)} (Mironov, Talwar & Zhang 2019, Sec. 3.3)
// summed directly — exact integer binomials from GMP, everything else in MPFR at 256 bits — with no
// log-space or cancellation-avoiding rewrite, so it shares no code path with the accountant's.
double reference_poisson_rdp(double q, double sigma, unsigned long alpha) {
    mpfr_t sum, term, x, binom_f;
    mpz_t binom;
    mpfr_inits2(256, sum, term, x, binom_f, nullptr);
    mpz_init(binom);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    for (unsigned long k = 0; k <= alpha; ++k) {
        mpz_bin_uiui(binom, alpha, k);
        mpfr_set_z(binom_f, binom, MPFR_RNDN);
        mpfr_set_d(term, 1.0 - q, MPFR_RNDN);  // 1 − q is exact in double for the q used here
        mpfr_pow_ui(term, term, alpha - k, MPFR_RNDN);
        mpfr_set_d(x, q, MPFR_RNDN);
        mpfr_pow_ui(x, x, k, MPFR_RNDN);
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_mul(term, term, binom_f, MPFR_RNDN);
        mpfr_set_ui(x, k * k - k, MPFR_RNDN);
        mpfr_div_d(x, x, 2.0 * sigma * sigma, MPFR_RNDN);  // 2σ² exact for the σ used here
        mpfr_exp(x, x, MPFR_RNDN);
        mpfr_mul(term, term, x, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_log(sum, sum, MPFR_RNDN);
    mpfr_div_ui(sum, sum, alpha - 1, MPFR_RNDN);
    const double out = mpfr_get_d(sum, MPFR_RNDN);
    mpfr_clears(sum, term, x, binom_f, nullptr);
    mpz_clear(binom);
    return out;
}

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

}  // namespace

TEST_CASE("rdp: Gaussian and Laplace closed forms, rounded upward") {
    // Mironov 2017, Prop. 7: α Δ²/(2σ²).
    for (const double alpha : {1.5, 2.0, 10.0, 1000.0}) {
        const double exact = alpha * 0.25 / 2.0;  // Δ/σ = 0.5: exact in double
        const double got = gaussian_rdp(0.5, alpha);
        CHECK(got > exact);
        CHECK(relative(got, exact) < 1e-15);
    }
    // Mironov 2017, Prop. 6 at λ = 1 (ratio 1), α = 2: log(2/3 e + 1/3 e^{−2}); α = 1: e^{−1}.
    const double two = std::log(2.0 / 3.0 * std::exp(1.0) + 1.0 / 3.0 * std::exp(-2.0));
    CHECK(laplace_rdp(1.0, 2.0) >= two * (1 - 1e-15));
    CHECK(relative(laplace_rdp(1.0, 2.0), two) < 1e-14);
    CHECK(relative(laplace_rdp(1.0, 1.0), std::exp(-1.0)) < 1e-14);
    // Large α tends to the pure-DP value Δ/b = 1 from below.
    CHECK(laplace_rdp(1.0, 1e6) < 1.0);
    CHECK(laplace_rdp(1.0, 1e6) > 0.999);
}

TEST_CASE("rdp: Poisson-subsampled Gaussian at integer orders agrees with the direct expansion to 1e-9") {
    struct Case {
        double q, sigma;
        unsigned long alpha;
    };
    for (const Case c : {Case{0.01, 4.0, 2}, Case{0.01, 4.0, 8}, Case{0.01, 4.0, 32}, Case{0.125, 1.0, 16},
                         Case{0.5, 2.0, 64}, Case{0.0078125, 8.0, 256}}) {
        CAPTURE(c.q);
        CAPTURE(c.sigma);
        CAPTURE(c.alpha);
        const double reference = reference_poisson_rdp(c.q, c.sigma, c.alpha);
        const double got = poisson_rdp_integer_order(c.q, c.sigma, c.alpha);
        CHECK(relative(got, reference) < 1e-9);
        CHECK(got >= reference);  // never on the unsafe side
    }
}

TEST_CASE("rdp: fractional orders are continuous with the integer ones and lie between them") {
    const double q = 0.01, sigma = 4.0;
    const double at8 = poisson_rdp_integer_order(q, sigma, 8), at9 = poisson_rdp_integer_order(q, sigma, 9);
    const double near8 = poisson_rdp_fractional_order(q, sigma, 8.0 + 1e-7);
    CHECK(relative(near8, at8) < 1e-5);
    const double mid = poisson_rdp_fractional_order(q, sigma, 8.5);
    CHECK(mid > at8);  // RDP is non-decreasing in α (Mironov 2017, Prop. 9)
    CHECK(mid < at9);
    // q = 1: the plain Gaussian.
    CHECK(relative(poisson_subsampled_gaussian_rdp(1.0, 2.0, 3.5), 3.5 / 8.0) < 1e-15);
}

TEST_CASE("rdp: the published DP-SGD value and the conversions") {
    // Abadi et al. 2016 (q = 0.01, σ = 4, 10⁴ steps, δ = 1e-5): ε ≈ 1.26 with the classic conversion
    // (TensorFlow Privacy's compute_rdp + get_privacy_spent report 1.26 at integer orders).
    const auto classic = subsampled_gaussian_epsilon(Sampling::Poisson, 0.01, 4.0, 10000, 1e-5, Conversion::Classic);
    CHECK(classic.value == doctest::Approx(1.26).epsilon(0.005));
    const auto tight = subsampled_gaussian_epsilon(Sampling::Poisson, 0.01, 4.0, 10000, 1e-5, Conversion::Tight);
    CHECK(tight.value < classic.value);
    // The tight conversion is never above the classic one at the same order and RDP value.
    for (const double alpha : {1.01, 2.0, 10.0, 100.0})
        CHECK(epsilon_at_order(0.5, alpha, 1e-5, Conversion::Tight) <=
              epsilon_at_order(0.5, alpha, 1e-5, Conversion::Classic));
    // δ at ε inverts ε at δ (each rounded upward, so δ(ε(δ)) ≤ δ).
    const double eps = epsilon_at_order(0.3, 12.0, 1e-6, Conversion::Tight);
    CHECK(delta_at_order(0.3, 12.0, eps, Conversion::Tight) <= 1e-6);
    CHECK(delta_at_order(0.3, 12.0, eps, Conversion::Tight) == doctest::Approx(1e-6).epsilon(1e-9));
}

TEST_CASE("rdp: monotone in sigma, q and steps, no cap for large sigma or tiny q") {
    auto eps = [](Sampling s, double q, double sigma, std::size_t steps) {
        return subsampled_gaussian_epsilon(s, q, sigma, steps, 1e-5, Conversion::Tight).value;
    };
    for (const Sampling s : {Sampling::Poisson, Sampling::WithoutReplacement}) {
        CHECK(eps(s, 0.01, 2.0, 1000) > eps(s, 0.01, 4.0, 1000));
        CHECK(eps(s, 0.02, 4.0, 1000) > eps(s, 0.01, 4.0, 1000));
        CHECK(eps(s, 0.01, 4.0, 2000) > eps(s, 0.01, 4.0, 1000));
    }
    const double big = eps(Sampling::Poisson, 0.01, 1000.0, 10000),
                 bigger = eps(Sampling::Poisson, 0.01, 4000.0, 10000);
    CHECK(big > 0.0);
    CHECK(bigger > 0.0);
    CHECK(bigger < big);
    const double tiny = eps(Sampling::Poisson, 1e-6, 4.0, 10000), tinier = eps(Sampling::Poisson, 1e-7, 4.0, 10000);
    CHECK(tiny > 0.0);
    CHECK(tinier > 0.0);
    CHECK(tinier < tiny);
    // Without replacement is an upper bound under replace-one: above Poisson's add/remove value here.
    CHECK(eps(Sampling::WithoutReplacement, 0.01, 4.0, 10000) > eps(Sampling::Poisson, 0.01, 4.0, 10000));
}

TEST_CASE("rdp: refuses a neighbouring relation the sampling's bound is not proved for") {
    using S = dpbo::SubsampledGaussianEvent;
    RdpCurve curve;
    dpbo::PrivacyEvent poisson_replace{S{0.01, 4.0, 10, S::Sampling::Poisson, S::Neighbouring::ReplaceOne}};
    CHECK_THROWS_WITH_AS(curve.add(poisson_replace, "accountant 'rdp'"),
                         doctest::Contains("neighbouring = replace-one is refused"), dpbo::ValidationError);
    dpbo::PrivacyEvent wor_add{
        S{0.01, 4.0, 10, S::Sampling::FixedSizeWithoutReplacement, S::Neighbouring::AddRemoveOne}};
    CHECK_THROWS_WITH_AS(curve.add(wor_add, "accountant 'rdp'"),
                         doctest::Contains("proved for neighbouring = replace-one"), dpbo::ValidationError);
    CHECK(curve.empty());
    curve.add(dpbo::PrivacyEvent{S{0.01, 4.0, 10, S::Sampling::Poisson, S::Neighbouring::AddRemoveOne}},
              "accountant 'rdp'");
    dpbo::PrivacyEvent wor{S{0.01, 4.0, 10, S::Sampling::FixedSizeWithoutReplacement, S::Neighbouring::ReplaceOne}};
    CHECK_THROWS_AS(curve.add(wor, "accountant 'rdp'"), dpbo::ValidationError);
    CHECK(curve.events().size() == 1);
}
