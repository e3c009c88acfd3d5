#include "without_replacement.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "certified_log_sum.hpp"
#include "gaussian_chi_moments.hpp"
#include "mpfr_log_sum.hpp"
#include "mpfr_number.hpp"
#include "rdp_mechanisms.hpp"

namespace dpbo::rdp {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Theorem 27's terms are summed for orders up to here (the moments computed, as dp_accounting does).
constexpr unsigned long kTheorem27Orders = GaussianChiMoments::kLargestOrder;
// Orders up to here are summed term by term in double; larger ones go to MPFR's windowed sum.
constexpr unsigned long kLargestDoubleOrder = 1UL << 16;
constexpr double u = kUnitRoundoff;

// log of Theorem 27's factor 4·√(B(2⌊j/2⌋)·B(2⌈j/2⌉)) for j ≥ 3 (+∞ where the moments are not held).
// For odd j, Cauchy–Schwarz gives E|L − 1|^j ≤ √(E(L − 1)^{j−1} · E(L − 1)^{j+1}); for even j it is
// E(L − 1)^j itself.
double log_theorem27_factor(const GaussianChiMoments* moments, unsigned long alpha, unsigned long j) {
    if (moments == nullptr || alpha > kTheorem27Orders) return kInfinity;
    const unsigned long lo = 2 * (j / 2), hi = 2 * ((j + 1) / 2);
    return std::log(4.0) + 0.5 * (moments->log_moment(lo) + moments->log_moment(hi));
}

}  // namespace

double without_replacement_rdp_integer_order_mpfr(double gamma, double sigma, unsigned long alpha) {
    if (gamma == 1.0) return gaussian_rdp(1.0 / sigma, static_cast<double>(alpha));
    if (alpha > kTheorem27Orders) return without_replacement_theorem9_rdp_mpfr(gamma, sigma, alpha);
    const auto moments = gaussian_chi_moments(sigma);
    constexpr mpfr_prec_t bits = 128;
    Mpfr log_g(bits, gamma), s(bits, sigma), lbinom(bits, 0.0), l(bits), t(bits), w(bits), log2(bits, 2.0);
    mpfr_log(log_g, log_g, MPFR_RNDN);
    mpfr_sqr(s, s, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
    mpfr_ui_div(s, 1, s, MPFR_RNDN);  // s = 1/(2σ²): ε(j) = j·s
    mpfr_log(log2, log2, MPFR_RNDN);
    LogSum sum(bits);
    for (unsigned long j = 1; j <= alpha; ++j) {
        // log C(α,j) = log C(α,j−1) + log(α − j + 1) − log j
        mpfr_set_ui(t, alpha - j + 1, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_add(lbinom, lbinom, t, MPFR_RNDN);
        mpfr_set_ui(t, j, MPFR_RNDN);
        mpfr_log(t, t, MPFR_RNDN);
        mpfr_sub(lbinom, lbinom, t, MPFR_RNDN);
        if (j < 2) continue;
        mpfr_mul_ui(w, s, j * (j - 1), MPFR_RNDN);  // (j − 1)ε(j)
        if (j == 2) {
            // min{log 4 + log(e^{ε(2)} − 1), log 2 + ε(2)}
            log_expm1(t, w);
            mpfr_add(t, t, log2, MPFR_RNDN);
            mpfr_add(t, t, log2, MPFR_RNDN);
            mpfr_add(w, w, log2, MPFR_RNDN);
            mpfr_min(w, w, t, MPFR_RNDN);
        } else {
            mpfr_add(w, w, log2, MPFR_RNDN);  // Theorem 9: log 2 + (j − 1)ε(j)
            const double factor = log_theorem27_factor(moments.get(), alpha, j);
            if (std::isfinite(factor)) {
                mpfr_set_d(t, factor, MPFR_RNDN);  // upper bounds already (moments up, log 4 up below)
                mpfr_mul_2si(l, t, -50, MPFR_RNDU);
                mpfr_abs(l, l, MPFR_RNDU);
                mpfr_add(t, t, l, MPFR_RNDU);  // the double's own roundings, covered generously
                mpfr_min(w, w, t, MPFR_RNDN);
            }
        }
        mpfr_mul_ui(l, log_g, j, MPFR_RNDN);
        mpfr_add(l, l, lbinom, MPFR_RNDN);
        mpfr_add(l, l, w, MPFR_RNDN);
        sum.add(l);
    }
    sum.log_sum(l);
    return rdp_from_log_excess(l, static_cast<double>(alpha), bits);
}

double without_replacement_rdp_integer_order(double gamma, double sigma, unsigned long alpha) {
    // γ = 1: every batch is the whole dataset, so each step is the Gaussian mechanism on it, whose
    // replace-one RDP is α/(2σ²) with σ relative to the replace-one sensitivity (dp_accounting does the
    // same). Theorem 9 at γ = 1 is valid but far looser (78.4 against 4.73 for σ = 10, 100 steps).
    if (gamma == 1.0) return gaussian_rdp(1.0 / sigma, static_cast<double>(alpha));
    if (alpha > kLargestDoubleOrder) return without_replacement_theorem9_rdp_mpfr(gamma, sigma, alpha);
    const std::shared_ptr<const GaussianChiMoments> moments =
        alpha <= kTheorem27Orders ? gaussian_chi_moments(sigma) : nullptr;
    // Each term's log is a + b + w: a = j·log γ, b = log C(α,j) (a running sum, its error tracked),
    // w the theorem's factor. Their errors: log γ 2u, times j u, s = 1/(2σ²) 2u, j(j−1)s u, log 2 and
    // log 4 u each, the moments' logs none (upper bounds already), the min none, each addition u of
    // its result; each is at most 4u times the magnitudes involved, which is what is passed on.
    const double log_g = std::log(gamma);
    const double s = 1.0 / (2.0 * sigma * sigma);
    const double a_alpha = static_cast<double>(alpha);
    CertifiedRdpSum sum;
    double lbinom = 0.0, lbinom_error = 0.0;
    for (unsigned long j = 1; j <= alpha; ++j) {
        const double ratio = (a_alpha - static_cast<double>(j) + 1.0) / static_cast<double>(j);
        const double step = std::log(ratio);
        lbinom += step;
        lbinom_error += u * (1.0 + 2.0 * std::fabs(step) + std::fabs(lbinom));
        if (j < 2) continue;
        const double x = static_cast<double>(j) * static_cast<double>(j - 1) * s;  // (j − 1)ε(j)
        double w = 0.0, magnitude = 0.0;
        if (j == 2) {
            const double theorem9 = std::log(2.0) + x;
            const double log_em1 = std::log(std::expm1(x));
            w = std::min(theorem9, std::log(4.0) + log_em1);
            // expm1 of an x with relative error 3u errs by at most 3u(1 + x) + 2u relatively.
            magnitude = 2.0 + 2.0 * x + std::fabs(log_em1) + std::fabs(w);
        } else {
            const double theorem9 = std::log(2.0) + x;
            const double theorem27 = log_theorem27_factor(moments.get(), alpha, j);
            w = std::min(theorem9, theorem27);
            magnitude = 2.0 + x + std::fabs(w) + (std::isfinite(theorem27) ? 2.0 * std::fabs(theorem27) : 0.0);
        }
        const double a = static_cast<double>(j) * log_g;
        const double l = a + lbinom + w;
        sum.add(l, lbinom_error + 4.0 * u * (std::fabs(a) + std::fabs(lbinom) + std::fabs(l) + magnitude));
    }
    const double value = sum.rdp(a_alpha);
    if (sum.certified()) return value;
    return without_replacement_rdp_integer_order_mpfr(gamma, sigma, alpha);
}

double without_replacement_rdp(double gamma, double sigma, double alpha) {
    if (!(alpha > 1.0)) return 0.0;  // the search asks only for α > 1
    if (gamma == 1.0) return gaussian_rdp(1.0 / sigma, alpha);
    const double below = std::floor(alpha);
    if (below == alpha && alpha < 4.0e9)
        return without_replacement_rdp_integer_order(gamma, sigma, static_cast<unsigned long>(alpha));
    if (alpha >= 4.0e9) return kInfinity;  // beyond any order the search reaches
    // K(α) ≤ (1 − t)·K(⌊α⌋) + t·K(⌈α⌉), t = α − ⌊α⌋, K(k) = (k − 1)·ε(k) and K(1) = 0. In MPFR, upward.
    const double t_double = alpha - below;
    const auto k = static_cast<unsigned long>(below);
    const double upper_rdp = without_replacement_rdp_integer_order(gamma, sigma, k + 1);
    const double lower_rdp = k >= 2 ? without_replacement_rdp_integer_order(gamma, sigma, k) : 0.0;
    if (!std::isfinite(upper_rdp) || !std::isfinite(lower_rdp)) return kInfinity;
    constexpr mpfr_prec_t bits = 128;
    Mpfr t(bits, t_double), c(bits), v(bits), w(bits), a(bits, alpha);
    mpfr_ui_sub(c, 1, t, MPFR_RNDU);  // 1 − t ≥ 0, exact at 128 bits
    mpfr_set_d(v, lower_rdp, MPFR_RNDU);
    mpfr_mul_ui(v, v, k - 1, MPFR_RNDU);  // K(⌊α⌋)
    mpfr_mul(v, v, c, MPFR_RNDU);
    mpfr_set_d(w, upper_rdp, MPFR_RNDU);
    mpfr_mul_ui(w, w, k, MPFR_RNDU);  // K(⌈α⌉)
    mpfr_mul(w, w, t, MPFR_RNDU);
    mpfr_add(v, v, w, MPFR_RNDU);
    mpfr_sub_ui(a, a, 1, MPFR_RNDD);  // α − 1, exact
    mpfr_div(v, v, a, MPFR_RNDU);
    return upward(v);
}

}  // namespace dpbo::rdp
