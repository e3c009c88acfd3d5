#include "rdp_mechanisms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "binomial_window.hpp"
#include "certified_log_sum.hpp"
#include "mpfr_log_sum.hpp"
#include "mpfr_number.hpp"
#include "poisson_fractional_double.hpp"

namespace dpbo::rdp {

namespace {

// Working precision of the sums whose terms are all positive (no cancellation): 128 bits keeps the
// accumulated relative error of a few thousand correctly rounded operations near 2^-110, far below
// the one-ulp upward allowance of upward().
constexpr mpfr_prec_t kBits = 128;

}  // namespace

double gaussian_rdp(double ratio, double alpha) {
    Mpfr out(kBits, ratio);
    mpfr_sqr(out, out, MPFR_RNDN);
    mpfr_mul_d(out, out, alpha, MPFR_RNDN);
    mpfr_div_ui(out, out, 2, MPFR_RNDN);
    return upward(out);
}

double laplace_rdp(double ratio, double alpha) {
    // 256 bits: for small Δ/b the log's argument is 1 + O((Δ/b)²), and the cancellation costs the
    // bits that −2·log2(Δ/b) counts; 256 leaves > 100 bits for Δ/b down to 1e-20.
    constexpr mpfr_prec_t bits = 256;
    Mpfr r(bits, ratio), out(bits), t(bits);
    if (alpha == 1.0) {  // Mironov 2017, Prop. 6, α = 1: 1/λ + e^{−1/λ} − 1 = r + expm1(−r)
        mpfr_neg(t, r, MPFR_RNDN);
        mpfr_expm1(t, t, MPFR_RNDN);
        mpfr_add(out, r, t, MPFR_RNDN);
        return upward(out);
    }
    // Mironov 2017, Prop. 6: (α/(2α−1)) e^{(α−1)r} + ((α−1)/(2α−1)) e^{−αr}; α, α−1 and 2α−1 are
    // formed in MPFR so that α close to 1 loses nothing.
    Mpfr a(bits, alpha), am1(bits), den(bits), w(bits);
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
    return upward(out);
}

double poisson_rdp_integer_order_mpfr(double q, double sigma, unsigned long alpha) {
    if (q == 1.0) return gaussian_rdp(1.0 / sigma, static_cast<double>(alpha));
    // Mironov, Talwar & Zhang 2019, Sec. 3.3 (integer α):
    //   A_α = Σ_{k=0}^{α} C(α,k) (1−q)^{α−k} q^k e^{(k²−k)/(2σ²)}.
    // Since Σ_k C(α,k)(1−q)^{α−k} q^k = 1, A_α − 1 = Σ_{k≥2} C(α,k)(1−q)^{α−k} q^k expm1((k²−k)/(2σ²)):
    // every term positive and the k = 0, 1 terms (which would cancel against the 1) gone, so the
    // log-space sum keeps full relative precision however small q or 1/σ² are. Written as
    // (1−q)^α Σ_k C(α,k) r^k expm1(·) with r = q/(1−q), only the terms that matter are summed and the
    // rest bounded from above (binomial_window.hpp): O(√α) terms instead of α.
    const mpfr_prec_t bits = kBits;
    Mpfr log_q(bits, q), log_1mq(bits, -q), two_var(bits, sigma), lbinom(bits), l(bits), x(bits), t(bits);
    Mpfr log_r(bits), s(bits, 1.0);
    mpfr_log(log_q, log_q, MPFR_RNDN);
    mpfr_log1p(log_1mq, log_1mq, MPFR_RNDN);
    mpfr_sqr(two_var, two_var, MPFR_RNDN);
    mpfr_mul_ui(two_var, two_var, 2, MPFR_RNDN);
    mpfr_sub(log_r, log_q, log_1mq, MPFR_RNDN);
    mpfr_div(s, s, two_var, MPFR_RNDN);  // 1/(2σ²)
    const auto log_g = [&](mpfr_ptr out, unsigned long k) {
        Mpfr arg(bits);
        mpfr_set_ui(arg, k, MPFR_RNDN);
        mpfr_mul_ui(arg, arg, k - 1, MPFR_RNDN);
        mpfr_mul(arg, arg, s, MPFR_RNDN);
        log_expm1(out, arg);
    };
    Mpfr omitted(bits);
    const BinomialSumWindow window = binomial_sum_window(alpha, 2, log_r, s, log_g, omitted);
    LogSum sum(bits);
    log_binomial(lbinom, alpha, window.first);
    for (unsigned long k = window.first; k <= window.last; ++k) {
        if (k > window.first) {  // log C(α,k) = log C(α,k−1) + log(α−k+1) − log k
            mpfr_set_ui(t, alpha - k + 1, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_add(lbinom, lbinom, t, MPFR_RNDN);
            mpfr_set_ui(t, k, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_sub(lbinom, lbinom, t, MPFR_RNDN);
        }
        mpfr_set_ui(x, k * (k - 1), MPFR_RNDN);
        mpfr_div(x, x, two_var, MPFR_RNDN);
        log_expm1(l, x);
        mpfr_add(l, l, lbinom, MPFR_RNDN);
        mpfr_mul_ui(t, log_1mq, alpha - k, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_mul_ui(t, log_q, k, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        sum.add(l);
    }
    if (window.omits_terms) {  // the omitted terms' bound, times the (1 − q)^α factored out
        mpfr_mul_ui(t, log_1mq, alpha, MPFR_RNDN);
        mpfr_add(l, omitted, t, MPFR_RNDU);
        sum.add(l);
    }
    if (sum.empty()) return 0.0;  // α ≤ 1 never reaches here; kept for completeness
    sum.log_sum(l);
    return rdp_from_log_excess(l, static_cast<double>(alpha), bits);
}

double poisson_rdp_integer_order(double q, double sigma, unsigned long alpha) {
    // The MPFR formula's terms (poisson_rdp_integer_order_mpfr below) in double, all of them up to
    // order 2^16, with a certified bound on their rounding (certified_log_sum.hpp); where it cannot
    // certify 1e-10 (very large orders, whose running log-binomial accumulates error) MPFR answers.
    constexpr unsigned long kLargestDoubleOrder = 1UL << 16;
    if (q == 1.0 || alpha > kLargestDoubleOrder) return poisson_rdp_integer_order_mpfr(q, sigma, alpha);
    constexpr double u = kUnitRoundoff;
    const double log_q = std::log(q), log_1mq = std::log1p(-q);
    const double s = 1.0 / (2.0 * sigma * sigma);
    const double a_alpha = static_cast<double>(alpha);
    CertifiedRdpSum sum;
    double lbinom = 0.0, lbinom_error = 0.0;
    for (unsigned long k = 1; k <= alpha; ++k) {
        // log C(α,k) as a running sum: each step's log errs by u (the ratio) + 2u|step| (the log), the
        // addition by u|sum|.
        const double step = std::log((a_alpha - static_cast<double>(k) + 1.0) / static_cast<double>(k));
        lbinom += step;
        lbinom_error += u * (1.0 + 2.0 * std::fabs(step) + std::fabs(lbinom));
        if (k < 2) continue;
        // x = k(k−1)/(2σ²) (3u relative), log(e^x − 1) by the form that keeps its precision.
        const double x = static_cast<double>(k) * static_cast<double>(k - 1) * s;
        const double log_em1 = x <= 1.0 ? std::log(std::expm1(x)) : x + std::log1p(-std::exp(-x));
        const double a = static_cast<double>(k) * log_q, b = (a_alpha - static_cast<double>(k)) * log_1mq;
        const double l = lbinom + a + b + log_em1;
        // Each part errs by at most 4u of the magnitudes it involves (log_em1: 3u(1 + x) + 2u from x's
        // error through expm1, 2u|log_em1| from the log), the three additions by u of their results.
        const double magnitude = std::fabs(lbinom) + std::fabs(a) + std::fabs(b) + std::fabs(log_em1) + 2.0 + 2.0 * x;
        sum.add(l, lbinom_error + 8.0 * u * magnitude);
    }
    const double value = sum.rdp(a_alpha);
    if (sum.certified()) return value;
    return poisson_rdp_integer_order_mpfr(q, sigma, alpha);
}

double poisson_rdp_jensen_bound(double q, double sigma, double alpha) {
    // A_α = E_{μ0}[((1−q) + q L)^α] with L = μ1/μ0 the Gaussians' likelihood ratio (the quantity the
    // two series compute). For α ≥ 1, x ↦ x^α is convex, so ((1−q)·1 + q·L)^α ≤ (1−q) + q L^α and
    // A_α ≤ 1 + q (E_{μ0}[L^α] − 1) = 1 + q expm1(α(α−1)/(2σ²)) (Mironov 2017, Prop. 7 for E[L^α]).
    // Exact up to a factor of at most about q^{1−α} in A_α, i.e. log(1/q) in ε(α), when the last
    // term dominates (small σ), where ε(α) itself is of order α/(2σ²).
    const mpfr_prec_t bits = kBits;
    Mpfr x(bits, alpha), t(bits, sigma), out(bits);
    mpfr_mul_d(x, x, alpha - 1.0, MPFR_RNDU);
    mpfr_sqr(t, t, MPFR_RNDD);
    mpfr_mul_ui(t, t, 2, MPFR_RNDD);
    mpfr_div(x, x, t, MPFR_RNDU);  // α(α−1)/(2σ²)
    log_expm1(out, x);
    mpfr_set_d(t, q, MPFR_RNDN);
    mpfr_log(t, t, MPFR_RNDN);
    mpfr_add(out, out, t, MPFR_RNDN);  // log(q expm1(·))
    return rdp_from_log_excess(out, alpha, bits);
}

namespace {

// The two-series value of the fractional order, or +∞ when it does not converge within its budget
// or a term leaves MPFR's range.
double fractional_order_series(double q, double sigma, double alpha) {
    // Mironov, Talwar & Zhang 2019, Sec. 3.3 (fractional α): with z₀ = σ² log(1/q − 1) + 1/2,
    //   A_α = Σ_{i≥0} C(α,i) (1−q)^{α−i} q^i e^{(i²−i)/(2σ²)} · ½ erfc((i − z₀)/(√2 σ))
    //       + Σ_{i≥0} C(α,i) (1−q)^{i} q^{α−i} e^{((α−i)²−(α−i))/(2σ²)} · ½ erfc((z₀ − (α−i))/(√2 σ)),
    // with the generalised binomial C(α,i), whose sign alternates for i > α. A_α ≈ 1 + O(q²α²/σ²),
    // so the first terms cancel down to A_α − 1: the precision grows by the bits that cancel.
    const double estimate = 0.5 * alpha * (alpha - 1.0) * q * q * std::expm1(1.0 / (sigma * sigma));
    const double lost = estimate < 1.0 ? -std::log2(estimate) : 0.0;
    const mpfr_prec_t bits = kBits + static_cast<mpfr_prec_t>(std::ceil(std::min(lost, 4000.0)));
    Mpfr log_q(bits, q), log_1mq(bits, -q), two_var(bits, sigma), z0(bits, q), root2s(bits, 2.0);
    mpfr_log(log_q, log_q, MPFR_RNDN);
    mpfr_log1p(log_1mq, log_1mq, MPFR_RNDN);
    mpfr_sqr(two_var, two_var, MPFR_RNDN);
    mpfr_ui_div(z0, 1, z0, MPFR_RNDN);  // z₀ = σ² (log(1/q − 1)) + 1/2
    mpfr_sub_ui(z0, z0, 1, MPFR_RNDN);
    mpfr_log(z0, z0, MPFR_RNDN);
    mpfr_mul(z0, z0, two_var, MPFR_RNDN);
    mpfr_add_d(z0, z0, 0.5, MPFR_RNDN);
    mpfr_mul_ui(two_var, two_var, 2, MPFR_RNDN);
    mpfr_sqrt(root2s, root2s, MPFR_RNDN);
    mpfr_mul_d(root2s, root2s, sigma, MPFR_RNDN);

    Mpfr a(bits, alpha), lc(bits, 0.0), i_m(bits), j(bits), l(bits), t(bits), e(bits), s0(bits), s1(bits);
    Mpfr sum(bits, 0.0), term(bits), previous(bits), excess(bits), threshold(bits);
    int sign = 1;
    mpfr_set_inf(previous, 1);
    // Truncation: once i > α the terms alternate in sign; we stop at a term that is smaller in
    // magnitude than its predecessor and than 2^-40 |A_α − 1|, and add its magnitude to the sum:
    // for an alternating series of decreasing terms the omitted tail is at most the first omitted
    // term, itself at most this one, so the result stays an upper bound (about 1e-12 relative).
    constexpr unsigned long kMaxTerms = 200000;
    for (unsigned long i = 0; i < kMaxTerms; ++i) {
        if (i > 0) {  // C(α,i) = C(α,i−1)·(α−i+1)/i, in log magnitude and sign
            mpfr_sub_ui(t, a, i - 1, MPFR_RNDN);
            if (mpfr_sgn(t.get()) == 0) {  // α integer: the series ends; handled by the integer formula
                break;
            }
            if (mpfr_sgn(t.get()) < 0) sign = -sign;
            mpfr_abs(t, t, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_add(lc, lc, t, MPFR_RNDN);
            mpfr_set_ui(t, i, MPFR_RNDN);
            mpfr_log(t, t, MPFR_RNDN);
            mpfr_sub(lc, lc, t, MPFR_RNDN);
        }
        mpfr_set_ui(i_m, i, MPFR_RNDN);
        mpfr_sub(j, a, i_m, MPFR_RNDN);
        // s0 = exp(lc + i log q + j log(1−q) + (i²−i)/(2σ²)) · ½ erfc((i − z₀)/(√2σ))
        mpfr_mul(l, i_m, log_q, MPFR_RNDN);
        mpfr_mul(t, j, log_1mq, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_set_ui(t, i == 0 ? 0 : i * (i - 1), MPFR_RNDN);  // i² − i
        mpfr_div(t, t, two_var, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_add(l, l, lc, MPFR_RNDN);
        mpfr_exp(s0, l, MPFR_RNDN);
        mpfr_sub(e, i_m, z0, MPFR_RNDN);
        mpfr_div(e, e, root2s, MPFR_RNDN);
        mpfr_erfc(e, e, MPFR_RNDN);
        mpfr_mul(s0, s0, e, MPFR_RNDN);
        // s1 = exp(lc + j log q + i log(1−q) + (j²−j)/(2σ²)) · ½ erfc((z₀ − j)/(√2σ))
        mpfr_mul(l, j, log_q, MPFR_RNDN);
        mpfr_mul(t, i_m, log_1mq, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_sub_ui(t, j, 1, MPFR_RNDN);
        mpfr_mul(t, t, j, MPFR_RNDN);
        mpfr_div(t, t, two_var, MPFR_RNDN);
        mpfr_add(l, l, t, MPFR_RNDN);
        mpfr_add(l, l, lc, MPFR_RNDN);
        mpfr_exp(s1, l, MPFR_RNDN);
        mpfr_sub(e, z0, j, MPFR_RNDN);
        mpfr_div(e, e, root2s, MPFR_RNDN);
        mpfr_erfc(e, e, MPFR_RNDN);
        mpfr_mul(s1, s1, e, MPFR_RNDN);
        mpfr_add(term, s0, s1, MPFR_RNDN);
        mpfr_div_ui(term, term, 2, MPFR_RNDN);  // the ½ of both erfc factors
        // An overflowed exponential times an underflowed erfc is NaN: every later comparison would
        // fail and the loop would run its whole budget for nothing.
        if (mpfr_number_p(term.get()) == 0) return std::numeric_limits<double>::infinity();
        if (sign < 0) mpfr_neg(term, term, MPFR_RNDN);
        mpfr_add(sum, sum, term, MPFR_RNDN);

        mpfr_abs(term, term, MPFR_RNDN);
        if (static_cast<double>(i) > alpha + 1.0 && mpfr_cmp(term, previous) < 0) {
            mpfr_sub_ui(excess, sum, 1, MPFR_RNDN);
            mpfr_abs(threshold, excess, MPFR_RNDN);
            mpfr_mul_2si(threshold, threshold, -40, MPFR_RNDN);
            if (mpfr_cmp(term, threshold) <= 0) {
                mpfr_add(excess, excess, term, MPFR_RNDN);    // the tail allowance
                if (mpfr_sgn(excess.get()) <= 0) return 0.0;  // cannot happen for q > 0; never below 0
                mpfr_log1p(excess, excess, MPFR_RNDN);        // ε(α) = log A_α / (α − 1)
                mpfr_sub_ui(t, a, 1, MPFR_RNDN);
                mpfr_div(excess, excess, t, MPFR_RNDN);
                return upward(excess);
            }
        }
        mpfr_set(previous, term, MPFR_RNDN);
    }
    // Not converged within the term budget (or α integer): +∞, and the caller falls back on the
    // Jensen bound.
    return std::numeric_limits<double>::infinity();
}

}  // namespace

double poisson_rdp_fractional_order(double q, double sigma, double alpha) {
    if (q == 1.0) return gaussian_rdp(1.0 / sigma, alpha);
    const double jensen = poisson_rdp_jensen_bound(q, sigma, alpha);
    // The series' terms carry e^{(i²−i)/(2σ²)} and erfc factors of e^{−(i−z₀)²/(2σ²)} for i up to
    // about α + 2; past kLargestSeriesExponent they leave MPFR's exponent range (|log| < 2^30·log 2
    // ≈ 7.4e8) and the series cannot be summed. There the last term dominates A_α and the Jensen
    // bound is within log(1/q) + log(2)/(α − 1) of ε(α), itself above α/(2σ²) − log(1/q) > 10⁸/α.
    constexpr double kLargestSeriesExponent = 1e8;
    if ((alpha + 3.0) * (alpha + 3.0) / (2.0 * sigma * sigma) > kLargestSeriesExponent) return jensen;
    // The series in double where its error bound certifies it (poisson_fractional_double.hpp), else
    // in MPFR.
    const CertifiedValue fast = poisson_fractional_order_double(q, sigma, alpha);
    const double series = fast.certified ? fast.value : fractional_order_series(q, sigma, alpha);
    return std::min(series, jensen);  // both are upper bounds
}

double poisson_rdp_fractional_order_mpfr(double q, double sigma, double alpha) {
    if (q == 1.0) return gaussian_rdp(1.0 / sigma, alpha);
    const double jensen = poisson_rdp_jensen_bound(q, sigma, alpha);
    constexpr double kLargestSeriesExponent = 1e8;  // as above
    if ((alpha + 3.0) * (alpha + 3.0) / (2.0 * sigma * sigma) > kLargestSeriesExponent) return jensen;
    return std::min(fractional_order_series(q, sigma, alpha), jensen);
}

double poisson_subsampled_gaussian_rdp(double q, double sigma, double alpha) {
    if (alpha == std::floor(alpha) && alpha >= 2.0 && alpha < 4.0e9)
        return poisson_rdp_integer_order(q, sigma, static_cast<unsigned long>(alpha));
    return poisson_rdp_fractional_order(q, sigma, alpha);
}

double without_replacement_theorem9_rdp_mpfr(double gamma, double sigma, unsigned long alpha) {
    // Wang, Balle & Kasiviswanathan 2019, Thm. 9 (upper bound), for the Gaussian's ε(j) = j/(2σ²),
    // ε(∞) = ∞ (so min{2, (e^{ε(∞)} − 1)^j} = 2):
    //   ε'(α) ≤ 1/(α−1) · log(1 + γ² C(α,2) min{4(e^{ε(2)} − 1), 2 e^{ε(2)}}
    //                         + Σ_{j=3}^{α} 2 γ^j C(α,j) e^{(j−1) ε(j)}),
    // all terms positive: summed in log space, then log1p.
    const mpfr_prec_t bits = kBits;
    Mpfr log_g(bits, gamma), var2(bits, sigma), lbinom(bits), l(bits), t(bits), u(bits);
    mpfr_log(log_g, log_g, MPFR_RNDN);
    mpfr_sqr(var2, var2, MPFR_RNDN);
    mpfr_mul_ui(var2, var2, 2, MPFR_RNDN);  // 2σ²
    LogSum sum(bits);
    // j = 2: log(γ² C(α,2)) + log min{4 expm1(ε(2)), 2 e^{ε(2)}}, ε(2) = 1/σ².
    Mpfr eps2(bits, 2.0);
    mpfr_div(eps2, eps2, var2, MPFR_RNDN);
    log_expm1(t, eps2);
    mpfr_set_ui(u, 4, MPFR_RNDN);
    mpfr_log(u, u, MPFR_RNDN);
    mpfr_add(t, t, u, MPFR_RNDN);  // log 4(e^{ε2} − 1)
    mpfr_set_ui(u, 2, MPFR_RNDN);
    mpfr_log(u, u, MPFR_RNDN);
    mpfr_add(u, u, eps2, MPFR_RNDN);  // log 2 e^{ε2}
    mpfr_min(t, t, u, MPFR_RNDN);
    mpfr_set_ui(lbinom, alpha, MPFR_RNDN);
    mpfr_mul_ui(lbinom, lbinom, alpha - 1, MPFR_RNDN);
    mpfr_div_ui(lbinom, lbinom, 2, MPFR_RNDN);
    mpfr_log(lbinom, lbinom, MPFR_RNDN);  // log C(α,2)
    mpfr_mul_ui(l, log_g, 2, MPFR_RNDN);
    mpfr_add(l, l, lbinom, MPFR_RNDN);
    mpfr_add(l, l, t, MPFR_RNDN);
    sum.add(l);
    Mpfr log2(bits, 2.0), s(bits, 1.0);
    mpfr_log(log2, log2, MPFR_RNDN);
    mpfr_div(s, s, var2, MPFR_RNDN);  // 1/(2σ²)
    // The j ≥ 3 terms are 2·C(α,j) γ^j e^{j(j−1)s}: only those that matter are summed, the rest bounded
    // from above (binomial_window.hpp).
    const auto log_weight = [&](mpfr_ptr out, unsigned long j) {
        mpfr_set_ui(out, j, MPFR_RNDN);
        mpfr_mul_ui(out, out, j - 1, MPFR_RNDN);
        mpfr_mul(out, out, s, MPFR_RNDN);
    };
    if (alpha >= 3) {
        Mpfr omitted(bits);
        const BinomialSumWindow window = binomial_sum_window(alpha, 3, log_g, s, log_weight, omitted);
        log_binomial(lbinom, alpha, window.first);
        for (unsigned long jj = window.first; jj <= window.last; ++jj) {
            if (jj > window.first) {
                mpfr_set_ui(t, alpha - jj + 1, MPFR_RNDN);
                mpfr_log(t, t, MPFR_RNDN);
                mpfr_add(lbinom, lbinom, t, MPFR_RNDN);
                mpfr_set_ui(t, jj, MPFR_RNDN);
                mpfr_log(t, t, MPFR_RNDN);
                mpfr_sub(lbinom, lbinom, t, MPFR_RNDN);
            }
            mpfr_set_ui(t, jj * (jj - 1), MPFR_RNDN);  // (j−1)·ε(j) = j(j−1)/(2σ²)
            mpfr_div(t, t, var2, MPFR_RNDN);
            mpfr_add(l, t, lbinom, MPFR_RNDN);
            mpfr_mul_ui(t, log_g, jj, MPFR_RNDN);
            mpfr_add(l, l, t, MPFR_RNDN);
            mpfr_add(l, l, log2, MPFR_RNDN);
            sum.add(l);
        }
        if (window.omits_terms) {  // the omitted terms' bound, times their factor 2
            mpfr_add(l, omitted, log2, MPFR_RNDU);
            sum.add(l);
        }
    }
    sum.log_sum(l);
    return rdp_from_log_excess(l, static_cast<double>(alpha), bits);
}

}  // namespace dpbo::rdp
