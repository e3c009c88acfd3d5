#pragma once
// Log-space sums of positive terms in MPFR, and the small stable functions the RDP formulas share.
#include "mpfr_number.hpp"

namespace dpbo::rdp {

// Streaming log-sum-exp in MPFR: holds log Σ e^{l_k} as m + log s without overflow.
class LogSum {
public:
    explicit LogSum(mpfr_prec_t bits) : m_(bits), s_(bits, 0.0), t_(bits) { mpfr_set_inf(m_, -1); }
    void add(mpfr_srcptr l) {
        // A NaN term (an overflow somewhere) makes the sum unknown, never smaller: log_sum() is then +∞.
        if (mpfr_nan_p(l) != 0 || unknown_) {
            unknown_ = true;
            return;
        }
        if (mpfr_cmp(l, m_) > 0) {
            mpfr_sub(t_, m_, l, MPFR_RNDN);  // s ← s·e^{m−l} + 1, m ← l
            mpfr_exp(t_, t_, MPFR_RNDN);
            mpfr_mul(s_, s_, t_, MPFR_RNDN);
            mpfr_add_ui(s_, s_, 1, MPFR_RNDN);
            mpfr_set(m_, l, MPFR_RNDN);
        } else {
            mpfr_sub(t_, l, m_, MPFR_RNDN);
            mpfr_exp(t_, t_, MPFR_RNDN);
            mpfr_add(s_, s_, t_, MPFR_RNDN);
        }
    }
    bool empty() const { return !unknown_ && mpfr_inf_p(m_.get()) != 0 && mpfr_sgn(m_.get()) < 0; }
    // out ← log Σ e^{l_k}.
    void log_sum(mpfr_ptr out) {
        if (unknown_ || mpfr_inf_p(m_.get()) != 0) {
            mpfr_set_inf(out, unknown_ ? 1 : mpfr_sgn(m_.get()));
            return;
        }
        mpfr_log(t_, s_, MPFR_RNDN);
        mpfr_add(out, m_, t_, MPFR_RNDN);
    }

private:
    Mpfr m_, s_, t_;
    bool unknown_ = false;
};

// out ← log(1 + e^{l}) = log1p(e^l), stable for every l.
void log1p_exp(mpfr_ptr out, mpfr_srcptr l);
// out ← log(e^{x} − 1) for x > 0, stable for tiny x (log expm1) and huge x (x + log(1 − e^{−x})).
void log_expm1(mpfr_ptr out, mpfr_srcptr x);
// RDP from log of the (A_α − 1) sum: ε(α) = log1p(A_α − 1)/(α − 1), rounded upward.
double rdp_from_log_excess(mpfr_srcptr log_excess, double alpha, mpfr_prec_t bits);

}  // namespace dpbo::rdp
