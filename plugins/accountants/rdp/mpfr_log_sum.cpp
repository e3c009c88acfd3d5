#include "mpfr_log_sum.hpp"

namespace dpbo::rdp {

void log1p_exp(mpfr_ptr out, mpfr_srcptr l) {
    if (mpfr_sgn(l) < 0) {
        mpfr_exp(out, l, MPFR_RNDN);
        mpfr_log1p(out, out, MPFR_RNDN);
    } else {
        Mpfr t(mpfr_get_prec(out));
        mpfr_neg(t, l, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);
        mpfr_add(out, l, t, MPFR_RNDN);
    }
}

void log_expm1(mpfr_ptr out, mpfr_srcptr x) {
    if (mpfr_cmp_ui(x, 1) <= 0) {
        mpfr_expm1(out, x, MPFR_RNDN);
        mpfr_log(out, out, MPFR_RNDN);
    } else {
        Mpfr t(mpfr_get_prec(out));
        mpfr_neg(t, x, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_neg(t, t, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(out, x, t, MPFR_RNDN);
    }
}

double rdp_from_log_excess(mpfr_srcptr log_excess, double alpha, mpfr_prec_t bits) {
    Mpfr out(bits);
    log1p_exp(out, log_excess);
    mpfr_div_d(out, out, alpha - 1.0, MPFR_RNDN);
    return upward(out);
}

}  // namespace dpbo::rdp
