#include "binomial_window.hpp"

#include <cmath>
#include <limits>

namespace dpbo::rdp {

namespace {

// out ← log(1 + e^{l}), stable for every l.
void log1p_exp(mpfr_ptr out, mpfr_srcptr l) {
    Mpfr t(mpfr_get_prec(out));
    if (mpfr_sgn(l) < 0) {
        mpfr_exp(t, l, MPFR_RNDN);
        mpfr_log1p(out, t, MPFR_RNDN);
    } else {
        mpfr_neg(t, l, MPFR_RNDN);
        mpfr_exp(t, t, MPFR_RNDN);
        mpfr_log1p(t, t, MPFR_RNDN);
        mpfr_add(out, l, t, MPFR_RNDN);
    }
}

// The binomial distribution Bin(α, p) with p = r e^{t}/(1 + r e^{t}), t = m·s, held by log p and
// log(1 − p): m = 0 gives the weights C(α,k) r^k themselves, m = α − 1 their tilt by e^{k(α−1)s}.
class Binomial {
public:
    Binomial(unsigned long alpha, mpfr_srcptr log_r, unsigned long m, mpfr_srcptr s, mpfr_prec_t bits)
        : alpha_(alpha), log_p_(bits), log_1mp_(bits), log_norm_(bits) {
        Mpfr lt(bits);
        mpfr_mul_ui(lt, s, m, MPFR_RNDN);
        mpfr_add(lt, lt, log_r, MPFR_RNDN);  // log(r e^t)
        log1p_exp(log_norm_, lt);            // log(1 + r e^t)
        mpfr_sub(log_p_, lt, log_norm_, MPFR_RNDN);
        mpfr_neg(log_1mp_, log_norm_, MPFR_RNDN);
        mpfr_mul_ui(log_norm_, log_norm_, alpha, MPFR_RNDN);
    }
    // log Σ_k C(α,k) (r e^t)^k = α log(1 + r e^t): the weights' total.
    mpfr_srcptr log_norm() const { return log_norm_; }
    // log of a bound on P[X ≥ k] (upper) or P[X ≤ k] (lower): −α·KL(k/α ‖ p) on the far side of the
    // mean (Chernoff; Hoeffding 1963, Thm. 1 in its KL form), 0 (P ≤ 1) on the near side.
    void log_tail_bound(mpfr_ptr out, unsigned long k, bool upper) const {
        const mpfr_prec_t bits = mpfr_get_prec(out);
        Mpfr x(bits), t(bits), one_minus(bits);
        mpfr_set_ui(x, k, MPFR_RNDN);
        mpfr_div_ui(x, x, alpha_, MPFR_RNDN);
        mpfr_set_zero(out, 1);
        if (k == 0) {
            if (!upper) mpfr_mul_ui(out, log_1mp_, alpha_, MPFR_RNDN);  // P[X = 0] = (1 − p)^α
            return;
        }
        mpfr_log(t, x, MPFR_RNDN);
        const int side = mpfr_cmp(t, log_p_);
        if (upper ? side <= 0 : side >= 0) return;
        // KL(x ‖ p) = x (log x − log p) + (1 − x)(log(1 − x) − log(1 − p)), with 0·log 0 = 0.
        mpfr_sub(t, t, log_p_, MPFR_RNDN);
        mpfr_mul(out, t, x, MPFR_RNDN);
        if (k < alpha_) {
            mpfr_ui_sub(one_minus, 1, x, MPFR_RNDN);
            mpfr_log(t, one_minus, MPFR_RNDN);
            mpfr_sub(t, t, log_1mp_, MPFR_RNDN);
            mpfr_mul(t, t, one_minus, MPFR_RNDN);
            mpfr_add(out, out, t, MPFR_RNDN);
        }
        mpfr_mul_ui(out, out, alpha_, MPFR_RNDN);
        mpfr_neg(out, out, MPFR_RNDN);
    }
    // The mean α·p, as a double (where the searches start; 0 when p underflows).
    double mean() const { return static_cast<double>(alpha_) * std::exp(mpfr_get_d(log_p_, MPFR_RNDN)); }

private:
    unsigned long alpha_;
    Mpfr log_p_, log_1mp_, log_norm_;
};

class Tails {
public:
    Tails(unsigned long alpha, mpfr_srcptr log_r, mpfr_srcptr s, mpfr_prec_t bits)
        : s_(s), bits_(bits), plain_(alpha, log_r, 0, s, bits), tilted_(alpha, log_r, alpha - 1, s, bits) {}

    // log of a bound on Σ_{k ≥ K} C(α,k) r^k e^{k(k−1)s}: for k ≤ α, e^{k(k−1)s} ≤ e^{k(α−1)s}, so
    // the tail is at most (1 + r e^c)^α P[Bin(α, p_c) ≥ K] with c = (α−1)s, p_c = r e^c/(1 + r e^c).
    void upper(mpfr_ptr out, unsigned long k) const {
        tilted_.log_tail_bound(out, k, true);
        mpfr_add(out, out, tilted_.log_norm(), MPFR_RNDN);
    }
    // log of a bound on Σ_{k0 ≤ k < K} C(α,k) r^k e^{k(k−1)s} ≤ e^{(K−1)(K−2)s} (1 + r)^α P[Bin(α, p) ≤ K − 1]
    // (K ≥ 2).
    void lower(mpfr_ptr out, unsigned long k) const {
        plain_.log_tail_bound(out, k - 1, false);
        mpfr_add(out, out, plain_.log_norm(), MPFR_RNDN);
        Mpfr t(bits_);
        mpfr_set_ui(t, k - 1, MPFR_RNDN);
        mpfr_mul_ui(t, t, k - 2, MPFR_RNDN);
        mpfr_mul(t, t, s_, MPFR_RNDN);
        mpfr_add(out, out, t, MPFR_RNDN);
    }
    double tilted_mean() const { return tilted_.mean(); }
    double plain_mean() const { return plain_.mean(); }

private:
    mpfr_srcptr s_;
    mpfr_prec_t bits_;
    Binomial plain_, tilted_;
};

unsigned long clamp_order(double k, unsigned long lo, unsigned long hi) {
    if (!(k > static_cast<double>(lo))) return lo;
    if (k >= static_cast<double>(hi)) return hi;
    return static_cast<unsigned long>(k);
}

}  // namespace

void log_binomial(mpfr_ptr out, unsigned long alpha, unsigned long k) {
    const mpfr_prec_t bits = mpfr_get_prec(out);
    Mpfr t(bits);
    mpfr_set_ui(out, alpha + 1, MPFR_RNDN);
    mpfr_lngamma(out, out, MPFR_RNDN);
    mpfr_set_ui(t, k + 1, MPFR_RNDN);
    mpfr_lngamma(t, t, MPFR_RNDN);
    mpfr_sub(out, out, t, MPFR_RNDN);
    mpfr_set_ui(t, alpha - k + 1, MPFR_RNDN);
    mpfr_lngamma(t, t, MPFR_RNDN);
    mpfr_sub(out, out, t, MPFR_RNDN);
}

BinomialSumWindow binomial_sum_window(unsigned long alpha, unsigned long k0, mpfr_srcptr log_r, mpfr_srcptr s,
                                      const std::function<void(mpfr_ptr, unsigned long)>& log_g, mpfr_ptr omitted_log) {
    const mpfr_prec_t bits = mpfr_get_prec(omitted_log);
    BinomialSumWindow window{k0, alpha};
    if (alpha <= k0 + 64) return window;  // few terms: sum them all
    const Tails tails(alpha, log_r, s, bits);

    // A lower bound on the sum: its largest term among the two binomial modes and the last term.
    // Every omitted tail is cut to 2^-64 of it.
    Mpfr reference(bits), term(bits), t(bits), bound(bits), bound2(bits);
    mpfr_set_inf(reference, -1);
    for (const unsigned long k :
         {clamp_order(tails.plain_mean(), k0, alpha), clamp_order(tails.tilted_mean(), k0, alpha), alpha}) {
        log_binomial(term, alpha, k);
        mpfr_mul_ui(t, log_r, k, MPFR_RNDN);
        mpfr_add(term, term, t, MPFR_RNDN);
        log_g(t, k);
        mpfr_add(term, term, t, MPFR_RNDN);
        mpfr_max(reference, reference, term, MPFR_RNDN);
    }
    mpfr_sub_d(reference, reference, 64.0 * std::log(2.0), MPFR_RNDN);  // τ

    // last: the smallest K ≥ the tilted mean whose upper tail beyond K is below τ (decreasing in K there).
    unsigned long lo = std::max(k0, clamp_order(std::ceil(tails.tilted_mean()), k0, alpha)), hi = alpha;
    while (lo < hi) {
        const unsigned long mid = lo + (hi - lo) / 2;
        tails.upper(bound, mid + 1);
        if (mpfr_cmp(bound, reference) <= 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    window.last = lo;
    // first: the largest K ≤ last whose lower tail below K is under τ (increasing in K).
    lo = k0;
    hi = window.last;
    while (lo < hi) {
        const unsigned long mid = lo + (hi - lo + 1) / 2;
        tails.lower(bound, mid);
        if (mpfr_cmp(bound, reference) <= 0)
            lo = mid;
        else
            hi = mid - 1;
    }
    window.first = lo;

    // The omitted terms' bound, log(e^{upper} + e^{lower}) ≤ max + log 2.
    Mpfr& omitted = bound2;
    mpfr_set_inf(omitted, -1);
    if (window.last < alpha) {
        tails.upper(bound, window.last + 1);
        mpfr_max(omitted, omitted, bound, MPFR_RNDN);
    }
    if (window.first > k0) {
        tails.lower(bound, window.first);
        mpfr_max(omitted, omitted, bound, MPFR_RNDN);
    }
    if (mpfr_inf_p(omitted.get()) == 0) {
        window.omits_terms = true;
        mpfr_add_d(omitted_log, omitted, std::log(2.0), MPFR_RNDU);
    }
    return window;
}

}  // namespace dpbo::rdp
