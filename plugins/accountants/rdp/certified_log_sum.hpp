#pragma once
// Double-precision evaluation of ε(α) = log(1 + Σ_k e^{l_k})/(α − 1) for positive terms given by their
// logs, with a certified bound on every rounding error, added upward: the RDP formulas whose terms are
// all positive (the Poisson binomial expansion at integer orders, the without-replacement bounds) cost
// a few hundred doubles instead of as many MPFR operations. When the bound exceeds kCertifiedRelative
// of the result (huge logs, or an overflow), `certified()` is false and the caller falls back to MPFR.
//
// The error model, with u = 2^-53: +, −, ×, ÷ err by at most u of their result (IEEE 754 round to
// nearest); exp, log, log1p and expm1 by at most 2u of theirs (glibc's documented maximum errors for
// these are 1 ulp = 2u or less on x86_64 and aarch64). Each term's log is passed with the caller's
// bound on its own error; this class adds the rest: the shift by the largest log, each exponential,
// the running sum (n terms: at most 1.01·n·u relative), the final log, log1p and division.
#include <cstddef>
#include <vector>

namespace dpbo::rdp {

// Relative distance from the exact value below which a double result is accepted: the MPFR path and
// this one then agree to far better than the 1e-9 the tests ask.
constexpr double kCertifiedRelative = 1e-10;
// The unit roundoff 2^-53.
constexpr double kUnitRoundoff = 1.1102230246251565e-16;

class CertifiedRdpSum {
public:
    // One term e^{log_term}, its log known to within ±log_error.
    void add(double log_term, double log_error);
    // ε(α) = log1p(Σ e^{l_k})/(α − 1) rounded upward past every bounded error; sets certified().
    double rdp(double alpha);
    bool certified() const { return certified_; }

private:
    std::vector<double> logs_;
    double largest_error_ = 0.0;
    bool certified_ = false;
};

// Adds the rounding error of a sum of `count` doubles whose magnitudes add up to `magnitude`
// (recursive summation: at most count·u·magnitude, with 1 % to spare for the second-order terms).
inline double sum_rounding(double magnitude, double count) { return 1.01 * count * kUnitRoundoff * magnitude; }

}  // namespace dpbo::rdp
