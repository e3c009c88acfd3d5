#pragma once
// The subsampled Gaussian's RDP at an integer order α is a sum of α terms of the shape
//   Σ_{k=k0}^{α} C(α,k) r^k g(k),   0 ≤ g(k) ≤ e^{k(k−1)s},   s = 1/(2σ²),
// (Mironov, Talwar & Zhang 2019, Sec. 3.3 with r = q/(1−q); Wang, Balle & Kasiviswanathan 2019,
// Thm. 9 with r = γ). Summing all of them costs O(α) MPFR operations, and the order search reaches
// α ~ 10⁷ for a large σ or a tiny q (minutes per ε). Only about √α of them matter: the weights
// C(α,k) r^k are a binomial distribution's, whose tails Chernoff's bound makes vanishingly small. This
// picks the terms worth summing and bounds every omitted one from above, so that the sum of the
// window plus the bound is never below the full sum (the accountant stays a valid upper bound).
#include <functional>

#include "mpfr_number.hpp"

namespace dpbo::rdp {

struct BinomialSumWindow {
    unsigned long first = 0;  // terms first..last are summed exactly
    unsigned long last = 0;
    bool omits_terms = false;  // whether `omitted_log` was set
};

// `log_g(out, k)` sets out ← log g(k). `log_r` = log r and `s` as above; orders α ≥ k0 ≥ 2. When
// terms are omitted, `omitted_log` is set to the log of an upper bound on their sum (both tails),
// at most 2^-63 of the largest summed term, so the result matches the full sum to far below a
// double's precision. (Kept in MPFR: for σ ~ 1e-300 these logs are ~1e600.)
BinomialSumWindow binomial_sum_window(unsigned long alpha, unsigned long k0, mpfr_srcptr log_r, mpfr_srcptr s,
                                      const std::function<void(mpfr_ptr, unsigned long)>& log_g, mpfr_ptr omitted_log);

// out ← log C(α, k), from log-gamma (exact to the working precision for every α up to 2^53).
void log_binomial(mpfr_ptr out, unsigned long alpha, unsigned long k);

}  // namespace dpbo::rdp
