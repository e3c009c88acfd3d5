#pragma once
// The first, fast bounds on a selection's acceptance probability p = exp(−γ),
// γ = factor·(best − score)/divisor: integers lo ≤ p·2^96 ≤ hi, from the same few long-double
// operations and the same 128-bit fixed-point arithmetic for every candidate, whatever its score.
//   γ: RN(RN(best − score)·RN(factor/divisor)) in long double (64-bit mantissa, an exponent range
//      no difference, product or quotient of doubles leaves), each rounding within one ulp in any
//      rounding mode, so γ̃ is within 2^-61 of γ relatively;
//      widened by 2^-60 and clamped at C = 68 (exp(−68)·2^96 < 1: beyond it lo = 0 and
//      hi = ⌈exp(−68)·2^96⌉ serve), it becomes an interval of multiples of 2^-120.
//   exp: γ = k·ln 2 + r, r ≥ 0 (k from a double estimate, lowered by one if k·ln 2 could pass γ);
//      exp(−r) = exp(−r/2^10)^(2^10), exp(−r/2^10) by ten terms of its alternating series (the
//      rest below 2^-129), then ten squarings and a shift by k — every step rounded outwards, in
//      units of 2^-126, with ln 2 and 1/j! bounded once by MPFR.
// hi − lo ≤ 2^-52·p·2^96 + 3: the width comes almost all from γ's 2^-60 (p·γ·2^-59 ≤ p·2^-52.9).
// Where a uniform falls between lo and hi, the caller refines with ExpMinusBounds (MPFR).
#include "exp_minus_bounds.hpp"

namespace dpbo::privacy::detail {

// ⌊a·b / 2^q⌋ and ⌈a·b / 2^q⌉ for 0 < q < 128, when the result fits in 128 bits.
uint128 multiply_floor(uint128 a, uint128 b, unsigned q);
uint128 multiply_ceil(uint128 a, uint128 b, unsigned q);

class FixedExpBounds {
public:
    static constexpr unsigned kFractionBits = 96;

    // Throws RunError if long double does not carry the 64-bit mantissa the error bound assumes.
    FixedExpBounds(ScoreScale scale, double best);

    void bound(double score, uint128& lo, uint128& hi) const;

private:
    long double scale_;  // RN(factor/divisor)
    long double best_;
};

}  // namespace dpbo::privacy::detail
