#pragma once
// The Poisson-subsampled Gaussian's two-series formula at a fractional order (Mironov, Talwar & Zhang
// 2019, Sec. 3.3; the MPFR evaluation is in rdp_mechanisms.cpp) summed in double, with a certified
// bound on its error: the order search's golden section spends most of its evaluations here, and
// MPFR's version cost a few milliseconds each.
//
// Error model (u = 2^-53): +, −, ×, ÷ err by u of their result; exp, log, log1p by 2u (glibc's
// documented maxima are below 1 ulp); erfc is MPFR's, correctly rounded at 53 bits (u), its argument's
// error passed through |d log erfc(y)/dy| ≤ 2|y| + 2. The series' terms alternate in sign beyond
// i > α and the first ones sum to about 1, so the absolute error is about n·u while A_α − 1 can be
// small: the result is accepted only when that error is below 1e-11 of A_α − 1 (q·α/σ not tiny).
namespace dpbo::rdp {

struct CertifiedValue {
    double value = 0.0;  // an upper bound on ε(α) when `certified`
    bool certified = false;
};

CertifiedValue poisson_fractional_order_double(double q, double sigma, double alpha);

}  // namespace dpbo::rdp
