// Bernoulli(exp(−γ)) for rational γ with integer arithmetic only (Canonne, Kamath & Steinke 2020,
// "The discrete Gaussian for differential privacy", Alg. 1).
#include "exact_integer.hpp"
#include "exact_rational.hpp"

namespace dpbo::privacy::detail {

namespace {

// γ = n/d in [0, 1]: draw Bernoulli(γ/k) for k = 1, 2, ... until one is false. The first k drawn
// false exceeds i with probability γ^i / i!, so it is odd with probability Σ (−γ)^i / i! = exp(−γ).
bool bernoulli_exp_minus_at_most_one(const mpz_class& n, const mpz_class& d, RandomBits& bits) {
    if (n == 0) return true;
    mpz_class bound = d;
    for (unsigned long k = 1;; ++k) {
        if (!(uniform_below(bound, bits) < n)) return (k % 2) == 1;
        bound += d;  // d·(k + 1)
    }
}

}  // namespace

bool bernoulli_exp_minus(const Rational& gamma, RandomBits& bits) {
    mpz_class whole;
    mpz_class rest;
    mpz_fdiv_qr(whole.get_mpz_t(), rest.get_mpz_t(), gamma.numerator.get_mpz_t(), gamma.denominator.get_mpz_t());
    const mpz_class one = 1;
    // Each trial fails with probability 1 − 1/e, so the loop ends after a few whatever ⌊γ⌋ is.
    for (mpz_class done = 0; done < whole; ++done) {
        if (!bernoulli_exp_minus_at_most_one(one, one, bits)) return false;
    }
    return bernoulli_exp_minus_at_most_one(rest, gamma.denominator, bits);
}

}  // namespace dpbo::privacy::detail
