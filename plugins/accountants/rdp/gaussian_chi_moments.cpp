#include "gaussian_chi_moments.hpp"

#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <utility>

#include "mpfr_number.hpp"

namespace dpbo::rdp {

namespace {

// Bits of the error bounds: they only need to be upper bounds, so a double's worth, rounded upward.
constexpr mpfr_prec_t kErrorBits = 53;
// A value is certified when its error bound is below 2^-60 of it (then rounded up with the bound added).
constexpr long kCertifiedBits = 60;

// One attempt at precision `bits`: true and `out` filled when every even-order moment is certified.
bool moments_at_precision(double sigma, mpfr_prec_t bits, std::vector<double>& out) {
    const std::size_t top = GaussianChiMoments::kLargestOrder;
    // s = 1/(2σ²), rounded to nearest; its relative error (< 2^-bits) is carried into h's bound below.
    Mpfr s(bits, sigma), x(bits);
    mpfr_sqr(s, s, MPFR_RNDN);
    mpfr_mul_2ui(s, s, 1, MPFR_RNDN);
    mpfr_ui_div(s, 1, s, MPFR_RNDN);
    // values[i] holds Δ^level h(i) after `level` passes; errors[i] an upper bound on its absolute error.
    std::deque<Mpfr> values, errors;  // a deque: Mpfr cannot move
    Mpfr t(kErrorBits);
    for (std::size_t i = 0; i <= top; ++i) {
        values.emplace_back(bits);
        errors.emplace_back(kErrorBits);
        // h(i) = e^{i(i−1)s}: the exponent's relative error is at most 3·2^-bits (s twice, the product once),
        // so h's is at most e^{3·2^{−bits}·i(i−1)s} − 1 + 2^-bits ≤ 2^{3−bits}(1 + i(i−1)s) while that
        // product stays below 1/4 (checked: beyond it the attempt fails and the precision grows).
        mpfr_mul_ui(values[i], s, static_cast<unsigned long>(i * (i == 0 ? 0 : i - 1)), MPFR_RNDN);
        mpfr_set(t, values[i], MPFR_RNDU);
        mpfr_exp(values[i], values[i], MPFR_RNDN);
        mpfr_add_ui(t, t, 1, MPFR_RNDU);
        mpfr_mul_2si(t, t, 3 - bits, MPFR_RNDU);
        if (mpfr_cmp_d(t, 0.25) > 0) return false;
        mpfr_mul(errors[i], t, values[i], MPFR_RNDU);
    }
    out.assign(top / 2 + 1, 0.0);
    out[0] = 0.0;  // B(0) = E[1] = 1, exactly
    Mpfr bound(bits), slack(kErrorBits);
    for (std::size_t level = 1; level <= top; ++level) {
        // Δ^level h(i) = Δ^{level−1} h(i+1) − Δ^{level−1} h(i); a round-to-nearest subtraction errs by
        // at most 2^-bits of its result, and the operands' errors add.
        for (std::size_t i = 0; i + level <= top; ++i) {
            mpfr_sub(values[i], values[i + 1], values[i], MPFR_RNDN);
            mpfr_add(errors[i], errors[i], errors[i + 1], MPFR_RNDU);
            mpfr_abs(slack, values[i], MPFR_RNDU);
            mpfr_mul_2si(slack, slack, -bits, MPFR_RNDU);
            mpfr_add(errors[i], errors[i], slack, MPFR_RNDU);
        }
        if (level % 2 != 0) continue;
        // Certified when positive and the error is below 2^-60 of the value; then log(value + error),
        // rounded upward.
        mpfr_mul_2si(slack, errors[0], kCertifiedBits, MPFR_RNDU);
        if (mpfr_sgn(values[0].get()) <= 0 || mpfr_cmp(slack, values[0]) > 0) return false;
        mpfr_add(bound, values[0], errors[0], MPFR_RNDU);
        mpfr_log(bound, bound, MPFR_RNDU);
        const double log_moment = mpfr_get_d(bound, MPFR_RNDU);
        out[level / 2] = std::isfinite(log_moment) ? log_moment : std::numeric_limits<double>::infinity();
    }
    return true;
}

}  // namespace

GaussianChiMoments::GaussianChiMoments(double sigma) {
    const auto not_held = [this] {
        log_moments_.assign(kLargestOrder / 2 + 1, std::numeric_limits<double>::infinity());
        log_moments_[0] = 0.0;
        precision_bits_ = 0;
    };
    // A tiny σ: h(ℓ) dominates B(ℓ) (B(ℓ) ≈ h(ℓ), so Theorem 27's 4·B(j) exceeds Theorem 9's 2·h(j)
    // anyway), and e^{ℓ(ℓ−1)/(2σ²)} would leave MPFR's exponent range: nothing worth computing.
    const double largest_exponent = static_cast<double>(kLargestOrder * (kLargestOrder - 1)) / (2.0 * sigma * sigma);
    if (!(largest_exponent <= 1e8)) {
        not_held();
        return;
    }
    // Start where a moderate σ needs nothing more; a large σ (heavy cancellation: B(ℓ) ~ σ^{−ℓ}) doubles
    // a few times, each attempt costing the one before it twice over at most. Beyond 2^18 bits (σ
    // beyond about 1e80) the moments are not held and the caller keeps Theorem 9's terms.
    for (mpfr_prec_t bits = 192; bits <= (mpfr_prec_t{1} << 18); bits *= 2) {
        if (moments_at_precision(sigma, bits, log_moments_)) {
            precision_bits_ = bits;
            return;
        }
    }
    not_held();
}

std::shared_ptr<const GaussianChiMoments> gaussian_chi_moments(double sigma) {
    static std::mutex mutex;
    static std::vector<std::pair<double, std::shared_ptr<const GaussianChiMoments>>> recent;
    {
        const std::lock_guard<std::mutex> lock(mutex);
        for (const auto& [held, moments] : recent)
            if (held == sigma) return moments;
    }
    // Computed outside the lock: two threads may both compute one σ, and both results are the same.
    auto moments = std::make_shared<const GaussianChiMoments>(sigma);
    const std::lock_guard<std::mutex> lock(mutex);
    constexpr std::size_t kKept = 8;
    if (recent.size() >= kKept) recent.erase(recent.begin());
    recent.emplace_back(sigma, moments);
    return moments;
}

}  // namespace dpbo::rdp
