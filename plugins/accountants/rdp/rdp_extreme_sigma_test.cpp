// The rdp accountant at extreme noise multipliers (the hostile-input battery: σ = 1e-5 took
// minutes, σ = 1000 over a minute): the windowed integer-order sums against every term summed, the
// Jensen bound against the fractional series, and answers that stay upper bounds however small σ
// is.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <mpfr.h>

#include "rdp_conversion.hpp"
#include "rdp_mechanisms.hpp"
#include "subsampled_gaussian.hpp"
#include "without_replacement.hpp"

namespace {

using namespace dpbo::rdp;

// log Σ_{k=2}^{α} C(α,k)(1−q)^{α−k} q^k expm1((k²−k)/(2σ²)), every term, then ε(α) = log1p(·)/(α−1):
// the formula without any omitted term, in 192-bit MPFR.
double every_term_poisson_rdp(double q, double sigma, unsigned long alpha) {
    mpfr_t lb, l, t, x, m, s;
    mpfr_inits2(192, lb, l, t, x, m, s, nullptr);
    mpfr_set_ui(lb, alpha, MPFR_RNDN);
    mpfr_log(lb, lb, MPFR_RNDN);  // log C(α, 1)
    mpfr_set_inf(m, -1);
    mpfr_set_zero(s, 1);
    for (unsigned long k = 2; k <= alpha; ++k) {
        mpfr_set_ui(t, alpha - k + 1, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(lb, lb, t, MPFR_RNDN);
        mpfr_set_ui(t, k, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_sub(lb, lb, t, MPFR_RNDN);
        mpfr_set_ui(x, k * (k - 1), MPFR_RNDN);
        mpfr_div_d(x, x, 2.0 * sigma * sigma, MPFR_RNDN);
        mpfr_expm1(x, x, MPFR_RNDN);  // finite for the σ used here
        mpfr_log(l, x, MPFR_RNDN);
        mpfr_add(l, l, lb, MPFR_RNDN);
        mpfr_set_d(t, q, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_mul_ui(t, t, k, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_set_d(t, -q, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);
        mpfr_mul_ui(t, t, alpha - k, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        // s·e^{m} += e^{l}, rescaled to the larger exponent
        if (mpfr_cmp(l, m) > 0) {
            mpfr_sub(t, m, l, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_mul(s, s, t, MPFR_RNDN);
            mpfr_add_ui(s, s, 1, MPFR_RNDN);
            mpfr_set(m, l, MPFR_RNDN);
        } else {
            mpfr_sub(t, l, m, MPFR_RNDN);
            mpfr_exp(t, t, MPFR_RNDN);
            mpfr_add(s, s, t, MPFR_RNDN);
        }
    }
    mpfr_log(s, s, MPFR_RNDN);
    mpfr_add(s, s, m, MPFR_RNDN);
    mpfr_exp(s, s, MPFR_RNDN);
    mpfr_log1p(s, s, MPFR_RNDN);
    mpfr_div_ui(s, s, alpha - 1, MPFR_RNDN);
    const double out = mpfr_get_d(s, MPFR_RNDN);
    mpfr_clears(lb, l, t, x, m, s, nullptr);
    return out;
}

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

}  // namespace

TEST_CASE("rdp extremes: large integer orders sum only the terms that matter and match every term summed") {
    struct Case {
        double q, sigma;
        unsigned long alpha;
    };
    // The orders the search reaches for σ = 1000 (α ≈ 4·10⁴), a tiny q, a large q, and a small σ whose
    // last term dominates.
    for (const Case c : {Case{0.01, 1000.0, 41769}, Case{1e-6, 4.0, 20000}, Case{0.5, 100.0, 5000},
                         Case{0.01, 0.5, 3000}, Case{0.3, 2.0, 400}}) {
        CAPTURE(c.q);
        CAPTURE(c.sigma);
        CAPTURE(c.alpha);
        const double reference = every_term_poisson_rdp(c.q, c.sigma, c.alpha);
        const double got = poisson_rdp_integer_order(c.q, c.sigma, c.alpha);
        CHECK(got >= reference);  // the omitted terms are bounded, never dropped
        CHECK(relative(got, reference) < 1e-13);
    }
}

TEST_CASE("rdp extremes: the Jensen bound is above the exact fractional orders and used where they overflow") {
    for (const double sigma : {0.5, 1.0, 4.0})
        for (const double alpha : {1.5, 2.5, 10.5}) {
            CAPTURE(sigma);
            CAPTURE(alpha);
            CHECK(poisson_rdp_jensen_bound(0.01, sigma, alpha) >= poisson_rdp_fractional_order(0.01, sigma, alpha));
        }
    // σ = 1e-5: the series' e^{(i²−i)/(2σ²)} leaves MPFR's range. RDP is non-decreasing in α (Mironov
    // 2017, Prop. 9), so the answer at 2.5 lies above the exact one at 2, and the bound adds at most
    // log(1/q) + log(2)/(α − 1) to the value it bounds.
    const double q = 0.01, sigma = 1e-5;
    const double at2 = poisson_rdp_integer_order(q, sigma, 2), at3 = poisson_rdp_integer_order(q, sigma, 3);
    const double mid = poisson_rdp_fractional_order(q, sigma, 2.5);
    CHECK(std::isfinite(mid));
    CHECK(mid >= at2);
    CHECK(mid <= at3);
    CHECK(poisson_rdp_fractional_order(q, sigma, 1.001) >= 1.0 / (2 * sigma * sigma) - std::log(1 / q) / 0.001);
}

TEST_CASE("rdp extremes: a tiny sigma answers a huge or infinite epsilon at once, never a small one") {
    const auto start = std::chrono::steady_clock::now();
    const OrderChoice tiny = subsampled_gaussian_epsilon(Sampling::Poisson, 0.01, 1e-5, 10, 1e-5, Conversion::Tight);
    // Ten releases at σ = 1e-5 are blatantly non-private: ε of order steps/(2σ²) = 5e10.
    CHECK(tiny.value > 1e10);
    CHECK(std::isfinite(tiny.value));
    // σ = 1e-300: every order's RDP exceeds the double range. An overflow once turned into a NaN that
    // the log-sum skipped, giving ε ≈ 3e-10; the answer is +∞.
    for (const unsigned long alpha : {2ul, 100ul, 36788ul})
        CHECK(poisson_rdp_integer_order(0.01, 1e-300, alpha) == std::numeric_limits<double>::infinity());
    CHECK(without_replacement_rdp_integer_order(0.01, 1e-300, 100) == std::numeric_limits<double>::infinity());
    CHECK(without_replacement_rdp_integer_order(0.01, 1e-300, 1000) == std::numeric_limits<double>::infinity());
    const OrderChoice none = subsampled_gaussian_epsilon(Sampling::Poisson, 0.01, 1e-300, 10, 1e-5, Conversion::Tight);
    CHECK(none.value == std::numeric_limits<double>::infinity());
    // Both took minutes before (10 s per fractional order); generous for a loaded machine.
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    CHECK(seconds < 20.0);
}
