// The discrete Laplace distribution P(Z = z) ∝ exp(−(s/t)|z|) with integer arithmetic only
// (Canonne, Kamath & Steinke 2020, Alg. 2). X = U + t·V with U uniform on [0, t) kept with
// probability exp(−U/t) and V geometric with ratio exp(−1) is geometric with ratio exp(−1/t);
// ⌊X/s⌋ is then geometric with ratio exp(−s/t), and a random sign (rejecting −0 so that 0 is not
// counted twice) makes it two-sided.
#include "exact_integer.hpp"
#include "exact_rational.hpp"

namespace dpbo::privacy::detail {

mpz_class discrete_laplace(const Rational& decay, RandomBits& bits) {
    const mpz_class& s = decay.numerator;
    const mpz_class& t = decay.denominator;
    const Rational one{1, 1};
    for (;;) {
        const mpz_class u = uniform_below(t, bits);
        if (!bernoulli_exp_minus(Rational{u, t}, bits)) continue;
        mpz_class v = 0;
        while (bernoulli_exp_minus(one, bits)) ++v;
        mpz_class y;
        const mpz_class x = u + t * v;
        mpz_fdiv_q(y.get_mpz_t(), x.get_mpz_t(), s.get_mpz_t());
        const bool negative = bits.bit();
        if (negative && y == 0) continue;
        return negative ? mpz_class(-y) : y;
    }
}

}  // namespace dpbo::privacy::detail
