// The without-replacement (replace-one) RDP against dp_accounting on the reference settings of
// tests/reference/dp_accounting_wor.txt (with the script that computed them): never looser than
// dp_accounting beyond 1e-9 relative. Then its pieces: the Gaussian's moments against a direct
// high-precision sum, Theorem 27 never above Theorem 9, q = 1 as the plain Gaussian, the fractional
// orders' interpolation. (The double path against the MPFR one: certified_double_test.cpp.)
#include <doctest/doctest.h>

#include <cmath>
#include <gmp.h>
#include <mpfr.h>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "dpbo/privacy_event.hpp"
#include "gaussian_chi_moments.hpp"
#include "rdp_conversion.hpp"
#include "rdp_curve.hpp"
#include "rdp_mechanisms.hpp"
#include "without_replacement.hpp"

namespace {

using namespace dpbo::rdp;

struct ReferenceRow {
    std::string name, event;
    double delta = 0.0, theirs = 0.0, order = 0.0;
};

std::vector<ReferenceRow> reference_rows() {
    std::vector<ReferenceRow> rows;
    for (const auto& f :
         dpbo::test::reference_table(std::string(DPBO_SOURCE_DIR) + "/tests/reference/dp_accounting_wor.txt", 5)) {
        rows.push_back({f[0], f[1], std::stod(f[2]), std::stod(f[3]), std::stod(f[4])});
    }
    return rows;
}

// ε at δ as the rdp accountant computes it (tight conversion, minimised over its orders).
OrderChoice dpbo_epsilon(const std::string& event_text, double delta) {
    RdpCurve curve;
    curve.add(dpbo::parse_builtin_event(event_text), "test");
    return minimise_over_orders(
        [&](double alpha) { return epsilon_at_order(curve.at(alpha), alpha, delta, Conversion::Tight); },
        curve.real_orders());
}

// B(ℓ) = Σ_i (−1)^{ℓ−i} C(ℓ,i) e^{i(i−1)/(2σ²)} summed directly at 20 000 bits (exact binomials from
// GMP): no difference table, no error bookkeeping — an independent route to the same number.
double reference_log_moment(double sigma, unsigned long order) {
    mpfr_t sum, term, s;
    mpz_t binom;
    mpfr_inits2(20000, sum, term, s, nullptr);
    mpz_init(binom);
    mpfr_set_d(s, sigma, MPFR_RNDN);
    mpfr_sqr(s, s, MPFR_RNDN);
    mpfr_mul_ui(s, s, 2, MPFR_RNDN);
    mpfr_ui_div(s, 1, s, MPFR_RNDN);
    mpfr_set_ui(sum, 0, MPFR_RNDN);
    for (unsigned long i = 0; i <= order; ++i) {
        mpz_bin_uiui(binom, order, i);
        mpfr_mul_ui(term, s, i * (i == 0 ? 0 : i - 1), MPFR_RNDN);
        mpfr_exp(term, term, MPFR_RNDN);
        mpfr_mul_z(term, term, binom, MPFR_RNDN);
        if ((order - i) % 2 == 1) mpfr_neg(term, term, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);
    }
    mpfr_log(sum, sum, MPFR_RNDN);
    const double out = mpfr_get_d(sum, MPFR_RNDN);
    mpfr_clears(sum, term, s, nullptr);
    mpz_clear(binom);
    return out;
}

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

}  // namespace

TEST_CASE("rdp without replacement: never looser than dp_accounting on the reference settings") {
    const auto rows = reference_rows();
    REQUIRE(rows.size() >= 17);
    for (const ReferenceRow& row : rows) {
        CAPTURE(row.name);
        const OrderChoice ours = dpbo_epsilon(row.event, row.delta);
        CAPTURE(ours.value);
        CAPTURE(ours.order);
        CAPTURE(row.theirs);
        CHECK(ours.value <= row.theirs * (1.0 + 1e-9));
        // The same bound over finer orders: below dp_accounting by the order grid's coarseness only
        // (a few percent at most), never by a different, looser-or-wrong computation.
        CHECK(ours.value >= row.theirs * 0.97);
    }
}

TEST_CASE("rdp without replacement: the Gaussian's moments are certified upper bounds of the exact ones") {
    for (const double sigma : {0.6, 4.0, 100.0, 1e4}) {
        CAPTURE(sigma);
        const GaussianChiMoments moments(sigma);
        CHECK(moments.precision_bits() > 0);
        CHECK(moments.log_moment(0) == 0.0);
        for (const unsigned long order : {2ul, 10ul, 64ul, 256ul}) {
            CAPTURE(order);
            const double exact = reference_log_moment(sigma, order);
            CHECK(moments.log_moment(order) >= exact);
            CHECK(moments.log_moment(order) - exact <= 1e-14 * std::max(1.0, std::abs(exact)));
        }
        // B(2) = e^{1/σ²} − 1 in closed form.
        CHECK(relative(moments.log_moment(2), std::log(std::expm1(1.0 / (sigma * sigma)))) < 1e-14);
    }
    // Large σ cancels more: B(256) ~ σ^{−256} from terms of order 2^256.
    CHECK(GaussianChiMoments(1e4).precision_bits() > GaussianChiMoments(1.0).precision_bits());
}

TEST_CASE("rdp without replacement: Theorem 27 never above Theorem 9, tighter where it matters") {
    for (const double gamma : {1e-3, 0.01, 0.25, 0.9})
        for (const double sigma : {0.7, 2.0, 5.0})
            for (const unsigned long alpha : {2ul, 3ul, 8ul, 40ul, 256ul}) {
                CAPTURE(gamma);
                CAPTURE(sigma);
                CAPTURE(alpha);
                const double tighter = without_replacement_rdp_integer_order(gamma, sigma, alpha);
                const double theorem9 = without_replacement_theorem9_rdp_mpfr(gamma, sigma, alpha);
                CHECK(tighter <= theorem9 * (1.0 + 1e-12));
                CHECK(tighter > 0.0);
            }
    // The σ = 5, q = 1/4 row was 14.19 by Theorem 9 against 11.02: the bound's third term.
    CHECK(without_replacement_rdp_integer_order(0.25, 5.0, 3) <
          0.95 * without_replacement_theorem9_rdp_mpfr(0.25, 5.0, 3));
}

TEST_CASE("rdp without replacement: q = 1 is the plain Gaussian, at every order and composed") {
    for (const double alpha : {1.5, 2.0, 5.4, 17.0, 300.0}) {
        CAPTURE(alpha);
        CHECK(without_replacement_rdp(1.0, 10.0, alpha) == gaussian_rdp(0.1, alpha));
    }
    // 100 full-batch steps at σ = 10 are 100 Gaussian releases of noise 10Δ: the 4.7285
    // (Theorem 9 gave 78.355).
    RdpCurve gaussian;
    gaussian.add(dpbo::PrivacyEvent(dpbo::GaussianEvent(10.0, 1.0), 100), "test");
    const OrderChoice plain = minimise_over_orders(
        [&](double alpha) { return epsilon_at_order(gaussian.at(alpha), alpha, 1e-5, Conversion::Tight); }, true);
    const OrderChoice full =
        dpbo_epsilon("subsampled-gaussian:q=1,sigma=10,steps=100,sampling=without-replacement", 1e-5);
    CHECK(full.value == doctest::Approx(plain.value).epsilon(1e-12));
    CHECK(full.value < 4.7286);
}

TEST_CASE("rdp without replacement: fractional orders interpolate the cumulant between integers") {
    const double gamma = 0.004, sigma = 0.6;
    const double at2 = without_replacement_rdp(gamma, sigma, 2.0), at3 = without_replacement_rdp(gamma, sigma, 3.0);
    const double at29 = without_replacement_rdp(gamma, sigma, 2.9);
    // (α − 1)ε(α) at 2.9 is 0.1·K(2) + 0.9·K(3), rounded up.
    const double expected = (0.1 * at2 + 0.9 * 2.0 * at3) / 1.9;
    CHECK(at29 >= expected * (1.0 - 1e-15));
    CHECK(relative(at29, expected) < 1e-14);
    // Between 1 and 2, K(1) = 0: ε(α) = ε(2) there.
    CHECK(relative(without_replacement_rdp(gamma, sigma, 1.5), at2) < 1e-14);
}
