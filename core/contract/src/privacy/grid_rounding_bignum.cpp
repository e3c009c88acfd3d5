// The grid rounding in GMP integers, for whatever the fixed-width version cannot hold (a draw with
// more than 64 known digits or an integer part of 64 or more, which is rare but possible). The same
// quantities as there, counted in units of 2^-P with P large enough that every term, value/g
// included, is an exact integer: no sticky bit is needed.
#include <algorithm>

#include "dyadic.hpp"
#include "exact_integer.hpp"
#include "grid_rounding.hpp"

namespace dpbo::privacy::detail {

namespace {

mpz_class shifted(mpz_class value, long shift) {
    if (shift > 0) mpz_mul_2exp(value.get_mpz_t(), value.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
    return value;
}

// The known digits of the fraction as an integer m: u lies in [m, m + 1)/2^known.
mpz_class known_digits(const LazyUniform& fraction) {
    const std::size_t n = fraction.known();
    mpz_class digits = static_cast<unsigned long>(fraction.head());
    for (std::size_t done = 64, word = 0; done < n; done += 64, ++word) {
        const std::size_t take = std::min<std::size_t>(64, n - done);
        mpz_mul_2exp(digits.get_mpz_t(), digits.get_mpz_t(), take);
        digits += static_cast<unsigned long>(fraction.tail_word(word) >> (64 - take));
    }
    return digits;
}

}  // namespace

Rounding round_bignum(const GridProblem& problem, const ExactDraw& draw) {
    const long n = static_cast<long>(draw.fraction.known());
    const Dyadic scale = to_dyadic(problem.scale);
    const Dyadic value = to_dyadic(problem.value);
    const long g = problem.grid_exponent;
    const long c = g - scale.exponent;                    // scale/g = S · 2^-c
    const long shift = std::max(0L, g - value.exponent);  // value/g = X / 2^shift when shift > 0
    const long p = std::max({c + n, shift, 1L});

    // value/g = I + f, f in [0, 1).
    const mpz_class x = static_cast<long>(value.mantissa);
    mpz_class whole;
    mpz_class low;  // f · 2^P
    if (shift > 0) {
        mpz_fdiv_q_2exp(whole.get_mpz_t(), x.get_mpz_t(), static_cast<mp_bitcnt_t>(shift));
        low = shifted(x - shifted(whole, shift), p - shift);
    } else {
        whole = shifted(x, value.exponent - g);
        low = 0;
    }

    mpz_class cell = shifted(mpz_class(static_cast<unsigned long>(draw.integer)), n) + known_digits(draw.fraction);
    const mpz_class width = shifted(mpz_class(static_cast<long>(scale.mantissa)), p - c - n);
    const mpz_class base = low + shifted(mpz_class(1), p - 1);
    const mpz_class lo = draw.negative ? mpz_class(base - width * (cell + 1)) : mpz_class(base + width * cell);
    const mpz_class hi = lo + width;
    mpz_class j;
    mpz_fdiv_q_2exp(j.get_mpz_t(), lo.get_mpz_t(), static_cast<mp_bitcnt_t>(p));
    const mpz_class next_multiple = shifted(mpz_class(j + 1), p);
    if (hi > next_multiple) return {RoundingOutcome::undecided, 0.0};
    return {RoundingOutcome::decided, nearest_double(whole + j, g)};
}

}  // namespace dpbo::privacy::detail
