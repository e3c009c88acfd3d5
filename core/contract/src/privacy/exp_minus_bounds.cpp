#include "exp_minus_bounds.hpp"

#include <bit>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::privacy::detail {

ExpMinusBounds::ExpMinusBounds(ScoreScale scale, double best, unsigned precision, unsigned fraction_bits)
    : scale_(scale), precision_(precision), fraction_bits_(fraction_bits) {
    // C = ⌈F·ln 2⌉ + 1, so exp(−C)·2^F < 1 (F·ln 2 is far below 2^53: the double is exact enough).
    const auto clamp = static_cast<unsigned long>(std::ceil(fraction_bits * std::numbers::ln2)) + 1;
    const int b = std::bit_width(clamp + 2);
    if (precision < 8 || fraction_bits < 1 || fraction_bits > precision || precision < static_cast<unsigned>(b) + 2)
        throw RunError(fmt::format("ExpMinusBounds: precision {} with {} fraction bits is not supported", precision,
                                   fraction_bits));
    margin_exponent_ = static_cast<long>(b) + 2 - static_cast<long>(precision);
    mpfr_init2(best_, 53);
    mpfr_init2(score_, 53);
    for (mpfr_t* x : {&gamma_lo_, &gamma_hi_, &clamp_, &width_, &e_up_, &lower_, &upper_, &margin_})
        mpfr_init2(*x, static_cast<mpfr_prec_t>(precision));
    mpfr_set_d(best_, best, MPFR_RNDN);     // exact: a double in 53 bits
    mpfr_set_ui(clamp_, clamp, MPFR_RNDN);  // exact: clamp < 2^b ≤ 2^(precision − 2)
    mpfr_set_ui(e_up_, 1, MPFR_RNDN);
    mpfr_exp(e_up_, e_up_, MPFR_RNDU);
    mpz_ui_pow_ui(one_at_f_.get_mpz_t(), 2, fraction_bits);
}

ExpMinusBounds::~ExpMinusBounds() {
    for (mpfr_t* x : {&best_, &score_, &gamma_lo_, &gamma_hi_, &clamp_, &width_, &e_up_, &lower_, &upper_, &margin_})
        mpfr_clear(*x);
}

void ExpMinusBounds::compute(double score) {
    mpfr_set_d(score_, score, MPFR_RNDN);  // exact
    // γ_lo ≤ γ ≤ γ_hi: best − score ≥ 0 and the scale's factor and divisor are ≥ 0 and > 0.
    mpfr_sub(gamma_lo_, best_, score_, MPFR_RNDD);
    mpfr_mul_d(gamma_lo_, gamma_lo_, scale_.factor, MPFR_RNDD);
    mpfr_div_d(gamma_lo_, gamma_lo_, scale_.divisor, MPFR_RNDD);
    mpfr_sub(gamma_hi_, best_, score_, MPFR_RNDU);
    mpfr_mul_d(gamma_hi_, gamma_hi_, scale_.factor, MPFR_RNDU);
    mpfr_div_d(gamma_hi_, gamma_hi_, scale_.divisor, MPFR_RNDU);
    mpfr_min(gamma_lo_, gamma_lo_, clamp_, MPFR_RNDN);  // exact
    mpfr_min(gamma_hi_, gamma_hi_, clamp_, MPFR_RNDN);
    mpfr_sub(width_, gamma_hi_, gamma_lo_, MPFR_RNDU);  // w
    // v = RNDU(RNDU(exp(−RNDD(γ_lo + 1)))·RNDU(e))
    mpfr_add_ui(upper_, gamma_lo_, 1, MPFR_RNDD);
    mpfr_neg(upper_, upper_, MPFR_RNDN);
    mpfr_exp(upper_, upper_, MPFR_RNDU);
    mpfr_mul(upper_, upper_, e_up_, MPFR_RNDU);
    // v·(1 − m) − w, rounded down
    mpfr_mul_2si(margin_, upper_, margin_exponent_, MPFR_RNDN);  // exact: a power of two
    mpfr_sub(lower_, upper_, margin_, MPFR_RNDD);
    mpfr_sub(lower_, lower_, width_, MPFR_RNDD);
    mpfr_mul_2ui(lower_, lower_, fraction_bits_, MPFR_RNDN);  // exact
    mpfr_mul_2ui(upper_, upper_, fraction_bits_, MPFR_RNDN);
}

void ExpMinusBounds::bound(double score, mpz_class& lo, mpz_class& hi) {
    compute(score);
    mpfr_get_z(lo.get_mpz_t(), lower_, MPFR_RNDD);
    mpfr_get_z(hi.get_mpz_t(), upper_, MPFR_RNDU);
    if (lo < 0) lo = 0;
    if (hi > one_at_f_) hi = one_at_f_;
}

}  // namespace dpbo::privacy::detail
