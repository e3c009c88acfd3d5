#include "poisson_fractional_double.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "certified_log_sum.hpp"

namespace dpbo::rdp {

namespace {

constexpr double u = kUnitRoundoff;

// erfc's relative error in glibc (the manual's table of known maximum errors lists a few ulp for
// x86_64 and aarch64; certified_double_test.cpp checks this allowance against MPFR over the range
// used), and the asymptotic series' beyond it.
constexpr double kErfcRelativeError = 32.0 * u;

// log(½ erfc(y)), with an error of at most kErfcRelativeError + 4u·(1 + |result|). Up to y = 26
// glibc's erfc; beyond, where a double underflows, the asymptotic series
//   erfc(y) = e^{−y²}/(y√π) · Σ_k (−1)^k (2k − 1)!!/(2y²)^k,
// which for real y > 0 envelops erfc (the remainder after any term is below the first omitted one,
// Abramowitz & Stegun 7.1.23): six terms leave less than 2e-15 at y ≥ 26, counted in the allowance.
// (MPFR's erfc costs up to a millisecond a value there.)
double log_half_erfc(double y) {
    if (y <= 26.0) return std::log(std::erfc(y)) - std::log(2.0);
    const double inverse = 1.0 / (2.0 * y * y);
    double series = 1.0, term = 1.0;
    for (int k = 1; k <= 5; ++k) {
        term *= -(2.0 * k - 1.0) * inverse;
        series += term;
    }
    return -y * y - std::log(y) - 0.5 * std::log(std::numbers::pi) - std::log(2.0) + std::log(series);
}

// A bound on |d log erfc(y)/dy| = 2e^{−y²}/(√π erfc(y)): for y ≤ 0, erfc(y) ≥ 1 gives 2e^{−y²}/√π;
// for y > 0, erfc(y) > 2e^{−y²}/(√π(y + √(y² + 2))) (Abramowitz & Stegun 7.1.13) gives y + √(y² + 2).
double log_erfc_slope(double y) {
    if (y <= 0.0) return 1.13 * std::exp(-y * y) * 1.01;
    return (y + std::sqrt(y * y + 2.0)) * 1.01;
}

// The first two terms of the first series less the 1 that A_α − 1 removes:
//   (1−q)^α ½erfc(y₀) + αq(1−q)^{α−1} ½erfc(y₁) − 1,  y₀ = −z₀/(√2σ), y₁ = (1 − z₀)/(√2σ),
// rewritten with ½erfc(y) = 1 − ½erfc(−y) as
//   [expm1(α log(1−q)) + αq(1−q)^{α−1}] − (1−q)^α ½erfc(−y₀) − αq(1−q)^{α−1} ½erfc(−y₁),
// whose parts are each computed to a few u of their own size (the bracket, ≈ −αq + αq, loses only what
// its parts' u of αq is): in the plain form the rounding of 1 (u) would swamp an A_α − 1 of 1e-6.
// Returns the value and sets `error` to a bound on its absolute error.
double leading_terms_minus_one(double alpha, double q_term, double log_1mq, double z0, double z0_error, double root2s,
                               double& error) {
    const double x0 = alpha * log_1mq, x1 = (alpha - 1.0) * log_1mq;  // 2u relative each (+ log1p's 2u)
    const double a = std::expm1(x0);
    const double b = alpha * q_term * std::exp(x1);
    const double y0 = -z0 / root2s, y1 = (1.0 - z0) / root2s;
    const double y_error = (z0_error + u * (1.0 + std::fabs(z0))) / root2s + 4.0 * u * (std::fabs(y0) + std::fabs(y1));
    const double c0 = 0.5 * std::erfc(-y0), c1 = 0.5 * std::erfc(-y1);
    const double c = std::exp(x0) * c0, d = b * c1;
    const double value = (a + b) - c - d;
    // a: expm1 of an argument with relative error 4u errs by 4u|x0|e^{|x0|}/|expm1(x0)| ≤ 4u(1 + |x0|)e^{|x0|}
    // relatively, plus 2u; b: 2u (α·q) + 4u|x1| + 2u; c, d: erfc's allowance and its argument's error
    // through the slope, exp's 2u + 4u|x|; each of the three additions u of its result.
    const double ea = std::fabs(a) * (4.0 * u * (1.0 + std::fabs(x0)) * std::exp(std::fabs(x0)) + 2.0 * u);
    const double eb = std::fabs(b) * (4.0 * u + 4.0 * u * std::fabs(x1) + 2.0 * u);
    const double ec = c * (kErfcRelativeError + log_erfc_slope(-y0) * y_error + 2.0 * u + 4.0 * u * std::fabs(x0));
    const double ed = d * (kErfcRelativeError + log_erfc_slope(-y1) * y_error + eb / std::max(std::fabs(b), 1e-300));
    // (+1e-300: an erfc that underflows to 0 in double.)
    error = 1.01 * (ea + eb + ec + ed + u * (std::fabs(a + b) + std::fabs(a + b - c) + std::fabs(value))) + 1e-300;
    return value;
}

// s + e = a + b exactly (Knuth's TwoSum, exact in round-to-nearest).
double two_sum(double a, double b, double& error) {
    const double s = a + b;
    const double bb = s - a;
    error = (a - (s - bb)) + (b - bb);
    return s;
}

}  // namespace

CertifiedValue poisson_fractional_order_double(double q, double sigma, double alpha) {
    CertifiedValue out;
    const double log_q = std::log(q), log_1mq = std::log1p(-q);
    const double s = 1.0 / (2.0 * sigma * sigma), var = sigma * sigma;
    // z₀ = σ² log(1/q − 1) + 1/2 with log(1/q − 1) = log(1 − q) − log q; its absolute error.
    const double log_odds = log_1mq - log_q;
    const double z0 = var * log_odds + 0.5;
    const double z0_error =
        4.0 * u * var * (std::fabs(log_1mq) + std::fabs(log_q) + std::fabs(log_odds)) + 2.0 * u * std::fabs(z0);
    const double root2s = std::sqrt(2.0) * sigma;  // 2u relative

    // The two largest terms, ≈ 1 − αq…, with the 1 taken away exactly (leading_terms_minus_one).
    double leading_error = 0.0;
    const double leading = leading_terms_minus_one(alpha, q, log_1mq, z0, z0_error, root2s, leading_error);
    double sum = leading, carry = 0.0, sum_error = leading_error, previous = std::numeric_limits<double>::infinity();
    double log_c = 0.0, log_c_error = 0.0;  // log|C(α,i)| as a running sum, and its error
    int sign = 1;
    constexpr unsigned long kMaxTerms = 200000;
    for (unsigned long i = 0; i < kMaxTerms; ++i) {
        const auto id = static_cast<double>(i);
        if (i > 0) {  // C(α,i) = C(α,i−1)·(α − i + 1)/i
            const double factor = alpha - (id - 1.0);
            if (factor == 0.0) return out;  // α integer: not this formula's case
            if (factor < 0.0) sign = -sign;
            const double step = std::log(std::fabs(factor)) - std::log(id);
            log_c += step;
            log_c_error += u * (1.0 + 2.0 * std::fabs(std::log(std::fabs(factor))) + 2.0 * std::log(id) +
                                std::fabs(step) + std::fabs(log_c));
        }
        const double j = alpha - id;  // u|j| error
        const double j_error = u * std::fabs(j);
        // term = C(α,i)·[(1−q)^{j} q^{i} e^{i(i−1)s} ½erfc((i − z₀)/(√2σ))
        //               + (1−q)^{i} q^{j} e^{j(j−1)s} ½erfc((z₀ − j)/(√2σ))]
        const double x0 = id * (id - 1.0) * s, x1 = j * (j - 1.0) * s;
        const double y0 = (id - z0) / root2s, y1 = (z0 - j) / root2s;
        const double y0_error = (z0_error + u * std::fabs(id - z0)) / root2s + 4.0 * u * std::fabs(y0);
        const double y1_error = (z0_error + j_error + u * std::fabs(z0 - j)) / root2s + 4.0 * u * std::fabs(y1);
        const double erfc0 = log_half_erfc(y0), erfc1 = log_half_erfc(y1);
        const double l0 = log_c + id * log_q + j * log_1mq + x0 + erfc0;
        const double l1 = log_c + j * log_q + id * log_1mq + x1 + erfc1;
        // Each log's error: the binomial's running error, 4u of every magnitude in it (log q, the
        // products, s, the additions), j's error through j·log(1−q), j·log q and j(j−1)s, and erfc's
        // argument error through its log-derivative.
        const double common = log_c_error + 4.0 * u * (std::fabs(log_c) + 2.0) + kErfcRelativeError;
        const double e0 =
            common +
            4.0 * u * (std::fabs(id * log_q) + std::fabs(j * log_1mq) + x0 + 2.0 * std::fabs(erfc0) + std::fabs(l0)) +
            j_error * std::fabs(log_1mq) + log_erfc_slope(y0) * y0_error;
        const double e1 = common +
                          4.0 * u *
                              (std::fabs(j * log_q) + std::fabs(id * log_1mq) + std::fabs(x1) + 2.0 * std::fabs(erfc1) +
                               std::fabs(l1)) +
                          j_error * (std::fabs(log_q) + std::fabs(2.0 * j - 1.0) * s) + log_erfc_slope(y1) * y1_error;
        const double t0 = i < 2 ? 0.0 : std::exp(l0), t1 = std::exp(l1);  // t0 of i < 2 is in `leading`
        if (!std::isfinite(t0) || !std::isfinite(t1)) return out;         // leaves a double's range: MPFR
        const double magnitude = t0 + t1;
        const double term = sign > 0 ? magnitude : -magnitude;
        // exp(l ± e) = exp(l)(1 ± (e^{e} − 1)); e ≤ 1e-6 here or the result will not certify anyway.
        sum_error += t0 * (1.01 * e0 + 2.0 * u) + t1 * (1.01 * e1 + 2.0 * u) + u * magnitude;
        // Summed as an unevaluated pair sum + carry: TwoSum is exact, so only the carry's own
        // additions round (u of it each), and a long tail of small terms costs nothing.
        double lost = 0.0;
        sum = two_sum(sum, term, lost);
        carry += lost;
        sum_error += u * std::fabs(carry);
        if (id > alpha + 1.0 && magnitude < previous) {
            const double excess = sum + carry;  // `leading` took the 1 away; + carry: u
            // The same stopping rule as the MPFR series: a term below its predecessor and 2^-40 of
            // |A_α − 1|; for the alternating, decreasing tail its magnitude bounds all that is left.
            if (magnitude <= std::ldexp(std::fabs(excess), -40)) {
                const double error = sum_error + u * std::fabs(excess) + magnitude;
                const double upper = excess + error;
                if (!(excess > 0.0) || !(2.0 * error <= kCertifiedRelative * excess)) return out;
                // ε = log1p(upper)/(α − 1): log1p 2u, α − 1 u (α > 1 near 1: u·α/(α − 1) relatively),
                // the division u, the final product u; doubled.
                const double am1 = alpha - 1.0;
                const double rounding = 2.0 * (4.0 * u + u * alpha / am1);
                out.value =
                    std::nextafter(std::log1p(upper) / am1 * (1.0 + rounding), std::numeric_limits<double>::infinity());
                out.certified = 2.0 * error / excess + rounding <= kCertifiedRelative;
                return out;
            }
        }
        previous = magnitude;
    }
    return out;
}

}  // namespace dpbo::rdp
