#pragma once
// The first, fast bounds on a selection's acceptance probability p = exp(−γ),
// γ = factor·(best − score)/divisor: integers lo ≤ p·2^96 ≤ hi, from the same few long-double
// operations and the same fixed-point arithmetic, without a branch, for every candidate, whatever
// its score.
//   γ: RN(RN(best − score)·RN(factor/divisor)) in long double (64-bit mantissa, an exponent range
//      no difference, product or quotient of doubles leaves), each rounding within one ulp in any
//      rounding mode, so γ̃ is within 2^-61 of γ relatively;
//      widened by 2^-60 and clamped at C = 68 (exp(−68)·2^96 < 1: beyond it lo = 0 and
//      hi = ⌈exp(−68)·2^96⌉ serve), it becomes an interval of multiples of 2^-120.
//   exp: γ = k·(ln 2)/8 + r, 0 ≤ r < (ln 2)/8 (k from a double estimate, corrected against ln 2's
//      bounds); exp(−γ) = 2^(−⌊k/8⌋)·2^(−(k mod 8)/8)·exp(−r), the middle factor from a table of 8
//      (picked by masks), exp(−r) by eleven terms of its alternating series (the rest below 2^-64) —
//      every step in 64-bit fixed point (multiples of 2^-63) rounded outwards, with ln 2, 1/j! and
//      the table bounded once by MPFR.
// hi − lo ≤ p·(γ + 1)·2^-58·2^96 + 4 (checked by the tests): the width comes from γ's 2^-60 and,
// at small γ, the series' roundings.
// Where a uniform falls between lo and hi, the caller refines with ExpMinusBounds (MPFR).
#include "exp_minus_bounds.hpp"

namespace dpbo::privacy::detail {

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
