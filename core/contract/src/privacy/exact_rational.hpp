#pragma once
// Exact rationals for the integer-only samplers (Canonne, Kamath & Steinke 2020), and the public
// Ratio (a quotient of two doubles) turned into one without rounding.
#include <string_view>

#include <gmpxx.h>

#include "dpbo/privacy/secure_sampling.hpp"
#include "random_bits.hpp"

namespace dpbo::privacy::detail {

struct Rational {
    mpz_class numerator;    // ≥ 0
    mpz_class denominator;  // > 0
};

// Throws ValidationError naming `what` unless both parts are finite, the numerator ≥ 0 (> 0 when
// `positive`) and the denominator > 0.
Rational to_rational(Ratio ratio, std::string_view what, bool positive);

// The exact value of factor · (larger − smaller) / divisor, in lowest terms. Throws as
// bernoulli_exp_minus_difference documents.
Rational to_rational(const ScaledDifference& gamma);

// True with probability exp(−n/d) (CKS Alg. 1): for γ ≤ 1, the first k with Bernoulli(γ/k) false
// is odd with probability exp(−γ); a larger γ is ⌊γ⌋ trials at exp(−1) and one at its remainder.
bool bernoulli_exp_minus(const Rational& gamma, RandomBits& bits);

// Z with P(Z = z) ∝ exp(−(s/t)·|z|) (CKS Alg. 2).
mpz_class discrete_laplace(const Rational& decay, RandomBits& bits);

}  // namespace dpbo::privacy::detail
