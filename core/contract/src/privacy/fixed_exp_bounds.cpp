#include "fixed_exp_bounds.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::privacy::detail {

namespace {

static_assert(std::numeric_limits<long double>::digits >= 64 && std::numeric_limits<long double>::max_exponent >= 4096,
              "the first bounds need long double's 64-bit mantissa and wide exponent (x87 or IEEE quad)");

constexpr unsigned kGammaBits = 120;   // γ as a multiple of 2^-120
constexpr unsigned kUnitBits = 126;    // exp values as multiples of 2^-126
constexpr unsigned kHalvings = 10;     // exp(−r) = exp(−r/2^10)^(2^10)
constexpr unsigned kTerms = 10;        // terms of exp(−r/2^10)'s series after the 1
constexpr long double kClamp = 68.0L;  // ⌈96·ln 2⌉ + 1
constexpr uint128 kOne = uint128{1} << kUnitBits;

struct U256 {
    uint128 high;
    uint128 low;
};

U256 multiply_full(uint128 a, uint128 b) {
    const uint128 mask = ~std::uint64_t{0};
    const uint128 a1 = a >> 64, a0 = a & mask, b1 = b >> 64, b0 = b & mask;
    const uint128 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint128 middle = (p00 >> 64) + (p01 & mask) + (p10 & mask);  // < 3·2^64
    return {p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64), (middle << 64) | (p00 & mask)};
}

// ln 2 as multiples of 2^-120 and 1/j! as multiples of 2^-126, each bounded below and above.
struct Constants {
    uint128 ln2_lo = 0, ln2_hi = 0;
    std::array<uint128, kTerms + 1> inverse_factorial_lo{}, inverse_factorial_hi{};
};

uint128 to_uint128(const mpz_class& value) {
    return (static_cast<uint128>(mpz_getlimbn(value.get_mpz_t(), 1)) << 64) |
           static_cast<uint128>(mpz_getlimbn(value.get_mpz_t(), 0));
}

Constants compute_constants() {
    Constants c;
    mpfr_t x;
    mpfr_init2(x, 256);
    mpz_class z;
    mpfr_const_log2(x, MPFR_RNDD);
    mpfr_mul_2ui(x, x, kGammaBits, MPFR_RNDN);
    mpfr_get_z(z.get_mpz_t(), x, MPFR_RNDD);
    c.ln2_lo = to_uint128(z);
    c.ln2_hi = c.ln2_lo + 1;  // ln 2 is irrational: never a multiple of 2^-120
    for (unsigned j = 1; j <= kTerms; ++j) {
        mpfr_set_ui(x, 1, MPFR_RNDN);
        for (unsigned i = 2; i <= j; ++i) mpfr_div_ui(x, x, i, MPFR_RNDD);
        mpfr_mul_2ui(x, x, kUnitBits, MPFR_RNDN);
        mpfr_get_z(z.get_mpz_t(), x, MPFR_RNDD);
        c.inverse_factorial_lo[j] = to_uint128(z);
        mpfr_set_ui(x, 1, MPFR_RNDN);
        for (unsigned i = 2; i <= j; ++i) mpfr_div_ui(x, x, i, MPFR_RNDU);
        mpfr_mul_2ui(x, x, kUnitBits, MPFR_RNDN);
        mpfr_get_z(z.get_mpz_t(), x, MPFR_RNDU);
        c.inverse_factorial_hi[j] = to_uint128(z);
    }
    mpfr_clear(x);
    return c;
}

const Constants& constants() {
    static const Constants c = compute_constants();
    return c;
}

// The bits long double arithmetic carries right now (x87 precision control could lower them).
int effective_long_double_bits() {
    volatile long double step = 1.0L;
    int bits = 0;
    for (volatile long double one = 1.0L; one + step / 2 != one && bits < 200; ++bits) step = step / 2;
    return bits + 1;
}

}  // namespace

uint128 multiply_floor(uint128 a, uint128 b, unsigned q) {
    const U256 p = multiply_full(a, b);
    return (p.high << (128 - q)) | (p.low >> q);
}

uint128 multiply_ceil(uint128 a, uint128 b, unsigned q) {
    const U256 p = multiply_full(a, b);
    const uint128 below = p.low & ((uint128{1} << q) - 1);
    return ((p.high << (128 - q)) | (p.low >> q)) + static_cast<uint128>(below != 0);
}

namespace {

// γ̃·2^120 = mantissa·2^shift, read off γ̃'s representation without a branch on its value: x87's
// 80-bit format holds the 64-bit mantissa (integer bit explicit) and the biased exponent, so
// γ̃ = mantissa·2^(exponent − 16383 − 63), also for γ̃ = 0 (both fields 0). Elsewhere frexp.
constexpr bool kX87 =
    std::numeric_limits<long double>::digits == 64 && std::numeric_limits<long double>::max_exponent == 16384;

void split(long double gamma, std::uint64_t& mantissa, int& shift) {
    if constexpr (kX87) {
        std::array<unsigned char, sizeof(long double)> bytes{};
        std::memcpy(bytes.data(), &gamma, sizeof gamma);
        std::uint16_t sign_exponent = 0;
        std::memcpy(&mantissa, bytes.data(), sizeof mantissa);
        std::memcpy(&sign_exponent, bytes.data() + 8, sizeof sign_exponent);
        shift = (sign_exponent & 0x7fff) - 16383 - 63 + static_cast<int>(kGammaBits);
    } else {
        int exponent = 0;
        const long double fraction = std::frexp(gamma, &exponent);
        mantissa = static_cast<std::uint64_t>(std::ldexp(fraction, 64));
        shift = exponent - 64 + static_cast<int>(kGammaBits);
    }
}

}  // namespace

FixedExpBounds::FixedExpBounds(ScoreScale scale, double best)
    : scale_(static_cast<long double>(scale.factor) / static_cast<long double>(scale.divisor)), best_(best) {
    if (const int bits = effective_long_double_bits(); bits < 64)
        throw RunError(
            fmt::format("the exact selections' bounds need 64-bit long double arithmetic, but it carries {} bits here "
                        "(has the x87 precision control been lowered?)",
                        bits));
    constants();
}

void FixedExpBounds::bound(double score, uint128& lo, uint128& hi) const {
    const Constants& c = constants();
    // γ̃ = RN(RN(best − score)·RN(factor/divisor)): three roundings, so within 2^-61 of γ relatively;
    // clamped at 2C, far enough above C that the widened γ stays above C. (Subtraction and
    // multiplication only, whose time does not depend on the operands as division's can.)
    const long double gamma = std::min((best_ - static_cast<long double>(score)) * scale_, 2 * kClamp);
    std::uint64_t mantissa = 0;
    int shift = 0;
    split(gamma, mantissa, shift);
    // shift ≤ 64 (γ̃ < 2^8), so a left shift stays below 2^128; a right shift of 127 or more leaves 0.
    const unsigned left = static_cast<unsigned>(std::max(shift, 0));
    const unsigned right = static_cast<unsigned>(std::min(std::max(-shift, 0), 127));
    const uint128 exact_floor = (static_cast<uint128>(mantissa) << left) >> right;
    const uint128 exact_ceil = exact_floor + static_cast<uint128>(right > 0);
    const uint128 clamp = uint128{static_cast<std::uint64_t>(kClamp)} << kGammaBits;
    const uint128 x_lo = std::min(exact_floor - std::min(exact_floor, (exact_floor >> 60) + 1), clamp);
    const uint128 x_hi = std::min(exact_ceil + (exact_ceil >> 60) + 1, clamp);

    // k ≤ γ_lo/ln 2 from a double estimate (its error is far below the 2^-20 taken off; truncation
    // is the floor here, or 0), then lowered by one if k·ln 2 could still pass γ_lo: r ≥ 0, r < 2 ln 2.
    const double estimate = static_cast<double>(std::min(gamma, kClamp)) * (1.0 / std::numbers::ln2) - 0x1p-20;
    auto k = static_cast<std::uint64_t>(std::max<std::int64_t>(static_cast<std::int64_t>(estimate), 0));
    k -= static_cast<std::uint64_t>(static_cast<uint128>(k) * c.ln2_hi > x_lo);
    const uint128 r_lo = (x_lo - static_cast<uint128>(k) * c.ln2_hi) << (kUnitBits - kGammaBits);
    const uint128 r_hi = (x_hi - static_cast<uint128>(k) * c.ln2_lo) << (kUnitBits - kGammaBits);
    const uint128 small_lo = r_lo >> kHalvings;
    const uint128 small_hi = (r_hi >> kHalvings) + 1;

    // exp(−s) = Σ_j (−s)^j/j!: a positive term bounded below from s_lo, a negative one above from s_hi.
    uint128 sum_lo = kOne - 1;  // the rest of the series is below one unit
    uint128 sum_hi = kOne + 1;
    uint128 power_lo = small_lo;
    uint128 power_hi = small_hi;
    for (unsigned j = 1; j <= kTerms; ++j) {
        const uint128 term_lo = multiply_floor(power_lo, c.inverse_factorial_lo[j], kUnitBits);
        const uint128 term_hi = multiply_ceil(power_hi, c.inverse_factorial_hi[j], kUnitBits);
        if (j % 2 == 1) {
            sum_lo -= term_hi;
            sum_hi -= term_lo;
        } else {
            sum_lo += term_lo;
            sum_hi += term_hi;
        }
        power_lo = multiply_floor(power_lo, small_lo, kUnitBits);
        power_hi = multiply_ceil(power_hi, small_hi, kUnitBits);
    }
    for (unsigned i = 0; i < kHalvings; ++i) {
        sum_lo = multiply_floor(sum_lo, sum_lo, kUnitBits);
        sum_hi = multiply_ceil(sum_hi, sum_hi, kUnitBits);
    }
    // ·2^-k, to multiples of 2^-96; a shift of 127 or more leaves lo = 0, hi = 1 (p < 2^-97 there).
    const auto down = static_cast<unsigned>(std::min<std::uint64_t>(kUnitBits - kFractionBits + k, 127));
    lo = sum_lo >> down;
    hi = std::min((sum_hi >> down) + 1, uint128{1} << kFractionBits);
}

}  // namespace dpbo::privacy::detail
