// The Laplace RDP curve in MPFR. The rdp accountant has its own copy of this computation (and keeps
// composing Laplace events with it, by kind, so its numbers do not move); this one serves the
// generic view any other accountant may compose through.
#include "laplace_rdp.hpp"

#include <cmath>
#include <limits>

#include <mpfr.h>

namespace dpbo::privacy {

namespace {

class Number {
public:
    explicit Number(mpfr_prec_t bits, double value = 0.0) {
        mpfr_init2(x_, bits);
        mpfr_set_d(x_, value, MPFR_RNDN);
    }
    Number(const Number&) = delete;
    Number& operator=(const Number&) = delete;
    ~Number() { mpfr_clear(x_); }
    operator mpfr_ptr() { return x_; }

private:
    mpfr_t x_;
};

}  // namespace

double laplace_rdp_upper(double ratio, double alpha) {
    // 256 bits: for small Δ/b the log's argument is 1 + O((Δ/b)²), and the cancellation costs the
    // bits that −2·log2(Δ/b) counts; 256 leaves > 100 bits for Δ/b down to 1e-20.
    constexpr mpfr_prec_t bits = 256;
    Number r(bits, ratio), a(bits, alpha), am1(bits), den(bits), t(bits), w(bits), out(bits);
    mpfr_sub_ui(am1, a, 1, MPFR_RNDN);
    mpfr_add(den, a, am1, MPFR_RNDN);
    mpfr_mul(t, am1, r, MPFR_RNDN);
    mpfr_exp(t, t, MPFR_RNDN);
    mpfr_mul(t, t, a, MPFR_RNDN);
    mpfr_mul(w, a, r, MPFR_RNDN);
    mpfr_neg(w, w, MPFR_RNDN);
    mpfr_exp(w, w, MPFR_RNDN);
    mpfr_mul(w, w, am1, MPFR_RNDN);
    mpfr_add(out, t, w, MPFR_RNDN);
    mpfr_div(out, out, den, MPFR_RNDN);
    mpfr_log(out, out, MPFR_RNDN);
    mpfr_div(out, out, am1, MPFR_RNDN);
    // Rounded up, then one ulp more: covers the working precision's round-to-nearest error.
    return std::nextafter(mpfr_get_d(out, MPFR_RNDU), std::numeric_limits<double>::infinity());
}

}  // namespace dpbo::privacy
