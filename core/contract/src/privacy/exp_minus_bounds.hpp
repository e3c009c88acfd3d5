#pragma once
// Rigorous fixed-point bounds on a selection's acceptance probability p = exp(−γ),
// γ = factor·(best − score)/divisor, at any precision P, from MPFR arithmetic in directed rounding:
//   lo ≤ p·2^F ≤ hi, integers with 0 ≤ lo ≤ hi ≤ 2^F.
// The refinement after FixedExpBounds, whose 96-bit bounds left a comparison undecided: each level
// doubles P, so the bounds close in on p and every comparison with a uniform is decided at last.
// γ is bounded from the four doubles, clamped at C (beyond which p·2^F < 1, so lo = 0 and any
// hi ≥ exp(−C)·2^F serve), and one exp is taken, of −(γ + 1) ∈ [−(C + 1), −1] (the +1 is given back
// by a factor e), so every candidate of a level costs the same operations.
//
// Why the bounds hold (P the precision, x = RNDD(min(γ_lo, C) + 1) < 2^b, b = bit_width(C + 2)):
//   upper: v = RNDU(RNDU(exp(−x))·RNDU(e)) ≥ exp(−min(γ_lo, C)) ≥ exp(−γ) = p.
//   lower: v ≤ exp(−min(γ_lo, C))·(1 + δ) with 1 + δ ≤ exp(2^(b−P))·(1 + 2^(1−P))³, so δ ≤ 3·2^(b−P)
//     once P ≥ b + 2; with m = 2^(b+2−P) ≥ δ/(1 + δ), v·(1 − m) ≤ exp(−min(γ_lo, C)), and
//     p ≥ exp(−min(γ_hi, C)) ≥ exp(−min(γ_lo, C)) − w, w ≥ min(γ_hi, C) − min(γ_lo, C), whenever
//     γ_hi ≤ C; when γ_hi > C the same expression is below exp(−C) < 2^-F, so its floor is ≤ 0.
//   lo = max(0, ⌊(v·(1 − m) − w)·2^F⌋), hi = min(2^F, ⌈v·2^F⌉), every step rounded outwards.
#include <cstdint>

#include <gmpxx.h>
#include <mpfr.h>

#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::privacy::detail {

__extension__ typedef unsigned __int128 uint128;  // a GCC extension; -Wpedantic would flag it

class ExpMinusBounds {
public:
    // precision ≥ 8 bits, 1 ≤ fraction_bits ≤ precision; the scale as validated by the caller.
    ExpMinusBounds(ScoreScale scale, double best, unsigned precision, unsigned fraction_bits);
    ~ExpMinusBounds();
    ExpMinusBounds(const ExpMinusBounds&) = delete;
    ExpMinusBounds& operator=(const ExpMinusBounds&) = delete;

    unsigned fraction_bits() const { return fraction_bits_; }

    void bound(double score, mpz_class& lo, mpz_class& hi);

private:
    void compute(double score);  // leaves lower_ and upper_ as the scaled bounds, before rounding to integers

    ScoreScale scale_;
    unsigned precision_;
    unsigned fraction_bits_;
    long margin_exponent_;  // m = 2^margin_exponent_
    mpfr_t best_, score_, gamma_lo_, gamma_hi_, clamp_, width_, e_up_, lower_, upper_, margin_;
    mpz_class one_at_f_;
};

}  // namespace dpbo::privacy::detail
