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
constexpr unsigned kUnitBits = 63;     // exp values as multiples of 2^-63
constexpr unsigned kSteps = 8;         // γ = k·(ln 2)/8 + r: 2^(−k/8) from a table of 8, exp(−r) by series
constexpr unsigned kTerms = 11;        // terms of exp(−r)'s series after the 1 (r < ln 2/8)
constexpr long double kClamp = 68.0L;  // ⌈96·ln 2⌉ + 1
constexpr std::uint64_t kOne = std::uint64_t{1} << kUnitBits;

// (ln 2)/8 as multiples of 2^-120; 1/j! and 2^(−m/8) as multiples of 2^-63; each bounded below and above.
struct Constants {
    uint128 step_lo = 0, step_hi = 0;
    std::array<std::uint64_t, kTerms + 1> inverse_factorial_lo{}, inverse_factorial_hi{};
    std::array<std::uint64_t, kSteps> power_lo{}, power_hi{};
};

uint128 to_uint128(const mpz_class& value) {
    return (static_cast<uint128>(mpz_getlimbn(value.get_mpz_t(), 1)) << 64) |
           static_cast<uint128>(mpz_getlimbn(value.get_mpz_t(), 0));
}

// ⌊x·2^bits⌋ or ⌈x·2^bits⌉ of an MPFR value already rounded the same way.
uint128 scaled(mpfr_t x, unsigned bits, mpfr_rnd_t direction) {
    mpz_class z;
    mpfr_mul_2ui(x, x, bits, MPFR_RNDN);  // exact
    mpfr_get_z(z.get_mpz_t(), x, direction);
    return to_uint128(z);
}

Constants compute_constants() {
    Constants c;
    mpfr_t x;
    mpfr_init2(x, 256);
    mpfr_const_log2(x, MPFR_RNDD);
    c.step_lo = scaled(x, kGammaBits - 3, MPFR_RNDD);
    c.step_hi = c.step_lo + 1;  // ln 2 is irrational: never a multiple of 2^-117
    for (unsigned j = 1; j <= kTerms; ++j) {
        for (const mpfr_rnd_t direction : {MPFR_RNDD, MPFR_RNDU}) {
            mpfr_set_ui(x, 1, MPFR_RNDN);
            for (unsigned i = 2; i <= j; ++i) mpfr_div_ui(x, x, i, direction);
            const auto value = static_cast<std::uint64_t>(scaled(x, kUnitBits, direction));
            (direction == MPFR_RNDD ? c.inverse_factorial_lo : c.inverse_factorial_hi)[j] = value;
        }
    }
    for (unsigned m = 0; m < kSteps; ++m) {
        for (const mpfr_rnd_t direction : {MPFR_RNDD, MPFR_RNDU}) {
            mpfr_set_si(x, -static_cast<long>(m), MPFR_RNDN);
            mpfr_div_ui(x, x, kSteps, MPFR_RNDN);  // exact: m/8
            mpfr_exp2(x, x, direction);
            const auto value = static_cast<std::uint64_t>(scaled(x, kUnitBits, direction));
            (direction == MPFR_RNDD ? c.power_lo : c.power_hi)[m] = value;
        }
    }
    mpfr_clear(x);
    return c;
}

const Constants& constants() {
    static const Constants c = compute_constants();
    return c;
}

// Selections by mask, not by branch: the path taken — and what a branch predictor learns from it —
// is the same for every score. A mask comes from the sign of a difference (both operands below
// 2^127), not from a comparison, which a compiler may turn back into a branch.
__extension__ typedef __int128 int128;
uint128 mask_below(uint128 a, uint128 b) { return static_cast<uint128>(static_cast<int128>(a - b) >> 127); }
uint128 mask_negative(int v) { return static_cast<uint128>(static_cast<int128>(v >> 31)); }
uint128 pick(uint128 mask, uint128 when_set, uint128 otherwise) { return (when_set & mask) | (otherwise & ~mask); }
int at_least_zero(int v) { return v & ~(v >> 31); }
int smaller(int a, int b) {
    const int d = a - b;
    return b + (d & (d >> 31));
}

std::uint64_t multiply_floor(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>((static_cast<uint128>(a) * b) >> kUnitBits);
}

std::uint64_t multiply_ceil(std::uint64_t a, std::uint64_t b) {
    const uint128 product = static_cast<uint128>(a) * b;
    const uint128 below = product & ((uint128{1} << kUnitBits) - 1);
    return static_cast<std::uint64_t>(product >> kUnitBits) + static_cast<std::uint64_t>(below != 0);
}

// The bits long double arithmetic carries right now (x87 precision control could lower them).
int effective_long_double_bits() {
    volatile long double step = 1.0L;
    int bits = 0;
    for (volatile long double one = 1.0L; one + step / 2 != one && bits < 200; ++bits) step = step / 2;
    return bits + 1;
}

}  // namespace

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
    // γ̃ = RN(RN(best − score)·RN(factor/divisor)): three roundings, so within 2^-61 of γ relatively.
    // (Subtraction and multiplication only: their time does not depend on the operands, as a
    // division's can.)
    const long double gamma = (best_ - static_cast<long double>(score)) * scale_;
    std::uint64_t mantissa = 0;
    int shift = 0;
    split(gamma, mantissa, shift);
    // γ̃·2^120 = mantissa·2^shift. shift ≥ 64 means γ̃ ≥ 128, beyond the clamp even once widened;
    // otherwise a left shift stays below 2^127, and a right shift of 127 or more leaves 0.
    const uint128 beyond_clamp = mask_negative(63 - shift);
    const int left = smaller(at_least_zero(shift), 63);
    const int right = smaller(at_least_zero(-shift), 127);
    const uint128 exact_floor = (static_cast<uint128>(mantissa) << left) >> right;
    const uint128 exact_ceil = exact_floor + static_cast<uint128>(right > 0);
    // Widened by 2^-60 relatively and one unit, floored at 0, clamped at C.
    const uint128 clamp = uint128{static_cast<std::uint64_t>(kClamp)} << kGammaBits;
    const uint128 widening = (exact_floor >> 60) + 1;
    uint128 x_lo = (exact_floor - widening) & ~mask_below(exact_floor, widening);
    uint128 x_hi = exact_ceil + (exact_ceil >> 60) + 1;
    x_lo = pick(beyond_clamp | mask_below(clamp, x_lo), clamp, x_lo);
    x_hi = pick(beyond_clamp | mask_below(clamp, x_hi), clamp, x_hi);

    // k = ⌊γ_lo/(ln 2/8)⌋: a double estimate from x_lo's top bits (its error is far below the 2^-17
    // taken off; truncation is the floor here, or 0), then moved by one either way if ln 2/8's
    // bounds say so: 0 ≤ r < ln 2/8 + (x_hi − x_lo).
    const double estimate =
        static_cast<double>(static_cast<std::int64_t>(x_lo >> 64)) * (0x1p-56 * kSteps / std::numbers::ln2) - 0x1p-17;
    auto k = static_cast<std::uint64_t>(std::max<std::int64_t>(static_cast<std::int64_t>(estimate), 0));
    k -= static_cast<std::uint64_t>(static_cast<uint128>(k) * c.step_hi > x_lo);
    k += static_cast<std::uint64_t>(static_cast<uint128>(k + 1) * c.step_hi <= x_lo);
    const std::uint64_t r_lo = static_cast<std::uint64_t>((x_lo - k * c.step_hi) >> (kGammaBits - kUnitBits));
    const std::uint64_t r_hi = static_cast<std::uint64_t>((x_hi - k * c.step_lo) >> (kGammaBits - kUnitBits)) + 1;

    // exp(−r) = Σ_j (−r)^j/j!: a positive term bounded below from r_lo, a negative one above from r_hi;
    // r < 0.087, so the rest after 11 terms is below 2^-64.
    std::uint64_t sum_lo = kOne - 1;
    std::uint64_t sum_hi = kOne + 1;
    std::uint64_t power_lo = r_lo;
    std::uint64_t power_hi = r_hi;
    for (unsigned j = 1; j <= kTerms; ++j) {
        const std::uint64_t term_lo = multiply_floor(power_lo, c.inverse_factorial_lo[j]);
        const std::uint64_t term_hi = multiply_ceil(power_hi, c.inverse_factorial_hi[j]);
        if (j % 2 == 1) {
            sum_lo -= term_hi;
            sum_hi -= term_lo;
        } else {
            sum_lo += term_lo;
            sum_hi += term_hi;
        }
        power_lo = multiply_floor(power_lo, r_lo);
        power_hi = multiply_ceil(power_hi, r_hi);
    }
    // ·2^(−(k mod 8)/8), the table entry picked by masks (no index depends on γ), then ·2^(−⌊k/8⌋).
    std::uint64_t table_lo = 0;
    std::uint64_t table_hi = 0;
    for (unsigned m = 0; m < kSteps; ++m) {
        const std::uint64_t take = std::uint64_t{0} - static_cast<std::uint64_t>((k % kSteps) == m);
        table_lo |= c.power_lo[m] & take;
        table_hi |= c.power_hi[m] & take;
    }
    const std::uint64_t value_lo = multiply_floor(sum_lo, table_lo);
    const std::uint64_t value_hi = multiply_ceil(sum_hi, table_hi);
    // To multiples of 2^-96: value·2^(96 − 63 − k/8); k/8 ≤ 98 keeps every shift below 128.
    const auto down = static_cast<unsigned>(k / kSteps);
    lo = (static_cast<uint128>(value_lo) << (kFractionBits - kUnitBits)) >> down;
    const uint128 ceiling = ((static_cast<uint128>(value_hi) << (kFractionBits - kUnitBits)) >> down) + 1;
    const uint128 one = uint128{1} << kFractionBits;
    hi = pick(mask_below(one, ceiling), one, ceiling);
}

}  // namespace dpbo::privacy::detail
