#pragma once
// The Poisson-subsampled Gaussian's two-series formula at a fractional order (Mironov, Talwar & Zhang
// 2019, Sec. 3.3; the MPFR evaluation is in rdp_mechanisms.cpp) summed in double, with a certified
// bound on its error: the order search's golden section spends most of its evaluations here, and
// MPFR's version cost a few milliseconds each.
//
// Error model (u = 2^-53): +, −, ×, ÷ err by u of their result; exp, log, log1p, expm1 by 2u (glibc's
// documented maxima are below 1 ulp); erfc glibc's with 16 ulp allowed (its documented maxima are a
// few ulp; a test checks the allowance against MPFR), or beyond y = 26, where a double underflows, the
// enveloping asymptotic series; erfc's argument error is passed through a bound on
// |d log erfc(y)/dy| (log_erfc_slope). The series' terms alternate in sign beyond i > α and the first
// two sum to about 1 − αq: they are formed with the 1 taken away exactly, so the absolute error is a
// few u of αq while A_α − 1 is of order α²q²/σ²; the result is accepted only when its error bound is
// below 5e-11 of A_α − 1.
namespace dpbo::rdp {

struct CertifiedValue {
    double value = 0.0;  // an upper bound on ε(α) when `certified`
    bool certified = false;
};

CertifiedValue poisson_fractional_order_double(double q, double sigma, double alpha);

}  // namespace dpbo::rdp
