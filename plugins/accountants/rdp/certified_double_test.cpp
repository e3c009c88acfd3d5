// The double-precision paths (certified_log_sum.hpp, poisson_fractional_double.hpp) against the MPFR
// ones they replace where certified: the same values to 1e-9 relative over a grid of q, σ and α, and
// the fallback taken where the double bound cannot certify.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mpfr.h>

#include "certified_log_sum.hpp"
#include "poisson_fractional_double.hpp"
#include "rdp_mechanisms.hpp"
#include "without_replacement.hpp"

namespace {

using namespace dpbo::rdp;

double relative(double a, double b) { return std::abs(a - b) / std::abs(b); }

}  // namespace

TEST_CASE("rdp: the double paths agree with the MPFR ones to 1e-9 at integer orders") {
    for (const double q : {1e-6, 1e-3, 0.01, 0.1, 0.5, 0.99})
        for (const double sigma : {0.5, 0.8, 1.1, 2.0, 4.0, 10.0, 100.0})
            for (const unsigned long alpha :
                 {2ul, 3ul, 5ul, 8ul, 17ul, 32ul, 64ul, 128ul, 255ul, 256ul, 257ul, 1000ul}) {
                CAPTURE(q);
                CAPTURE(sigma);
                CAPTURE(alpha);
                CHECK(relative(poisson_rdp_integer_order(q, sigma, alpha),
                               poisson_rdp_integer_order_mpfr(q, sigma, alpha)) <= 1e-9);
                CHECK(relative(without_replacement_rdp_integer_order(q, sigma, alpha),
                               without_replacement_rdp_integer_order_mpfr(q, sigma, alpha)) <= 1e-9);
            }
}

TEST_CASE("rdp: the double fractional-order series agrees with MPFR's to 1e-9, and certifies the DP-SGD cases") {
    int certified = 0, cases = 0;
    // (Each MPFR evaluation costs milliseconds to a second: a grid of 48, not hundreds.)
    for (const double q : {1e-4, 0.01, 0.3})
        for (const double sigma : {0.6, 1.1, 4.0, 10.0})
            for (const double alpha : {1.001, 2.5, 17.2, 80.5}) {
                CAPTURE(q);
                CAPTURE(sigma);
                CAPTURE(alpha);
                const double mixed = poisson_rdp_fractional_order(q, sigma, alpha);
                const double mpfr = poisson_rdp_fractional_order_mpfr(q, sigma, alpha);
                CHECK(relative(mixed, mpfr) <= 1e-9);
                const CertifiedValue fast = poisson_fractional_order_double(q, sigma, alpha);
                ++cases;
                if (fast.certified) ++certified;
            }
    CAPTURE(certified);
    CHECK(certified * 2 > cases);  // most of the grid takes the fast path
    // The DP-SGD settings at the orders the search visits.
    for (const double sigma : {1.1, 4.0})
        for (const double alpha : {1.5, 3.7, 8.2, 17.22})
            CHECK(poisson_fractional_order_double(0.01, sigma, alpha).certified);
}

TEST_CASE("rdp: the certified sum refuses what it cannot certify") {
    // A log of the sum whose error bound is 1e-6: far beyond 1e-10, so not certified.
    CertifiedRdpSum loose;
    loose.add(-3.0, 1e-6);
    loose.add(-4.0, 0.0);
    (void)loose.rdp(2.0);
    CHECK_FALSE(loose.certified());
    // Exact terms: certified, and an upper bound on log1p(e^{-3} + e^{-4}).
    CertifiedRdpSum exact;
    exact.add(-3.0, 0.0);
    exact.add(-4.0, 0.0);
    const double value = exact.rdp(2.0);
    CHECK(exact.certified());
    const double truth = std::log1p(std::exp(-3.0) + std::exp(-4.0));
    CHECK(value >= truth);
    CHECK(relative(value, truth) < 1e-13);
    // An overflowing term is never certified (the caller then asks MPFR).
    CertifiedRdpSum overflow;
    overflow.add(std::numeric_limits<double>::infinity(), 0.0);
    (void)overflow.rdp(2.0);
    CHECK_FALSE(overflow.certified());
}

TEST_CASE("rdp: glibc's erfc stays within the 16-ulp allowance the fractional series assumes") {
    // Every y the series hands to glibc lies in (−∞, 26]; below −6 erfc is 2 to the last bit. A grid
    // (step 1/128 and an irrational shift of it) against MPFR's correctly rounded erfc (MPFR's costs up
    // to a millisecond a value around y = 10, hence not denser).
    mpfr_t reference;
    mpfr_init2(reference, 128);
    double worst = 0.0;
    for (int k = -6 * 128; k <= 26 * 128; ++k)
        for (const double shift : {0.0, 0.41421356237309503 / 128.0}) {
            const double y = k / 128.0 + shift;
            mpfr_set_d(reference, y, MPFR_RNDN);
            mpfr_erfc(reference, reference, MPFR_RNDN);
            const double exact = mpfr_get_d(reference, MPFR_RNDN);
            worst = std::max(worst, std::abs(std::erfc(y) - exact) / exact);
        }
    mpfr_clear(reference);
    CAPTURE(worst);
    CHECK(worst <= 32.0 * kUnitRoundoff);
}
