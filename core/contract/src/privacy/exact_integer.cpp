#include "exact_integer.hpp"

#include <algorithm>
#include <cmath>

#include "dyadic.hpp"

namespace dpbo::privacy::detail {

double nearest_double(const mpz_class& value, long exponent) {
    if (value == 0) return 0.0;
    mpz_class magnitude = abs(value);
    const std::size_t width = mpz_sizeinbase(magnitude.get_mpz_t(), 2);
    if (width > 53) {
        // Keep the top 53 bits; the rest decides rounding: above half up, below down, a tie to even.
        const std::size_t dropped = width - 53;
        mpz_class top;
        mpz_fdiv_q_2exp(top.get_mpz_t(), magnitude.get_mpz_t(), dropped);
        mpz_class rest;
        mpz_fdiv_r_2exp(rest.get_mpz_t(), magnitude.get_mpz_t(), dropped);
        mpz_class half;
        mpz_setbit(half.get_mpz_t(), dropped - 1);
        const int side = cmp(rest, half);
        if (side > 0 || (side == 0 && mpz_odd_p(top.get_mpz_t()))) ++top;
        magnitude = top;
        exponent += static_cast<long>(dropped);
    }
    // At most 2^53: exact as a double; ldexp rounds nothing unless it overflows to inf (callers keep
    // the exponent at or above −1022 with a magnitude ≥ 1, so the result is never subnormal).
    const double scaled = std::ldexp(magnitude.get_d(), static_cast<int>(std::clamp(exponent, -4000L, 4000L)));
    return value < 0 ? -scaled : scaled;
}

mpz_class integer_of(double value) {
    const Dyadic dyadic = to_dyadic(value);
    mpz_class result = static_cast<long>(dyadic.mantissa);
    if (dyadic.exponent >= 0) {
        mpz_mul_2exp(result.get_mpz_t(), result.get_mpz_t(), static_cast<mp_bitcnt_t>(dyadic.exponent));
    } else {
        mpz_tdiv_q_2exp(result.get_mpz_t(), result.get_mpz_t(), static_cast<mp_bitcnt_t>(-dyadic.exponent));
    }
    return result;
}

mpz_class uniform_below(const mpz_class& bound, RandomBits& bits) {
    if (mpz_fits_ulong_p(bound.get_mpz_t())) {
        return static_cast<unsigned long>(bits.uniform_below(bound.get_ui()));
    }
    const mpz_class largest = bound - 1;
    const std::size_t width = mpz_sizeinbase(largest.get_mpz_t(), 2);
    mpz_class candidate;
    for (;;) {
        candidate = 0;
        std::size_t drawn = 0;
        while (drawn < width) {
            const unsigned take = static_cast<unsigned>(std::min<std::size_t>(64, width - drawn));
            mpz_mul_2exp(candidate.get_mpz_t(), candidate.get_mpz_t(), take);
            const mpz_class chunk = mpz_class(static_cast<unsigned long>(bits.bits(take)));
            candidate += chunk;
            drawn += take;
        }
        if (candidate < bound) return candidate;
    }
}

}  // namespace dpbo::privacy::detail
