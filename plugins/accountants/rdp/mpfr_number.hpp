#pragma once
// A minimal RAII owner of one MPFR number, so the RDP formulas read as arithmetic and never leak.
// MPFR (not long double or Boost.Multiprecision) because it is correctly rounded in every
// operation, documents its error bounds, and is already a dependency of the core's exact privacy
// bounds; its exponent range also holds exp(x) for the x ~ 1e8 that large orders reach.
#include <mpfr.h>

namespace dpbo::rdp {

class Mpfr {
public:
    explicit Mpfr(mpfr_prec_t bits, double value = 0.0) {
        mpfr_init2(x_, bits);
        mpfr_set_d(x_, value, MPFR_RNDN);
    }
    Mpfr(const Mpfr&) = delete;
    Mpfr& operator=(const Mpfr&) = delete;
    ~Mpfr() { mpfr_clear(x_); }
    mpfr_ptr get() { return x_; }
    mpfr_srcptr get() const { return x_; }
    operator mpfr_ptr() { return x_; }
    operator mpfr_srcptr() const { return x_; }

private:
    mpfr_t x_;
};

// The double nearest above `x` by at least one unit in the last place: MPFR's own result is rounded
// upward (MPFR_RNDU) and then moved one more ulp up, which covers the accumulated round-to-nearest
// error of the working-precision computation (relative error < 2^-100 at >= 128 bits, far below a
// double's ulp of 2^-52) — the accountant must never report less than the true value.
double upward(mpfr_srcptr x);

}  // namespace dpbo::rdp
