// An upper bound on δ(ε) of μ-GDP that holds where double precision does not. The closed form
// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) subtracts two nearly equal terms whenever μ or δ is tiny
// (μ = 1e−300 makes both terms ≈ ½ and their difference ≈ 4e−301), so a double evaluation returns
// noise — and a calibration built on it claimed (1e−300, 1e−300)-DP while achieving δ ≈ 5.6e−17.
// MPFR evaluates both terms with as many bits as the cancellation needs, and the bound adds a
// generous allowance for every rounding, so a statement built on it is never on the unsafe side.
#include <mpfr.h>

#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/math/normal.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

// MPFR numbers with RAII, all at one precision.
class MpfrScratch {
public:
    explicit MpfrScratch(mpfr_prec_t precision) {
        for (auto& value : values_) mpfr_init2(value, precision);
    }
    ~MpfrScratch() {
        for (auto& value : values_) mpfr_clear(value);
    }
    MpfrScratch(const MpfrScratch&) = delete;
    MpfrScratch& operator=(const MpfrScratch&) = delete;
    mpfr_ptr operator[](std::size_t i) { return values_[i]; }

private:
    std::array<mpfr_t, 8> values_;
};

// e^ε for ε in the millions and Φ of arguments in the millions leave double's exponent range; the
// widest range MPFR supports covers every ε this bound accepts. Restored on exit.
class WidestExponentRange {
public:
    WidestExponentRange() : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
        mpfr_set_emin(mpfr_get_emin_min());
        mpfr_set_emax(mpfr_get_emax_max());
    }
    ~WidestExponentRange() {
        mpfr_set_emin(emin_);
        mpfr_set_emax(emax_);
    }
    WidestExponentRange(const WidestExponentRange&) = delete;
    WidestExponentRange& operator=(const WidestExponentRange&) = delete;

private:
    mpfr_exp_t emin_, emax_;
};

// Φ(x) = ½ erfc(−x/√2), into `out`, rounded in direction `rounding` (so a term that leaves even
// MPFR's exponent range becomes its smallest positive number, or zero, on the side that keeps the
// bound an upper bound); `scratch` is clobbered.
void normal_cdf(mpfr_ptr out, mpfr_srcptr x, mpfr_ptr scratch, mpfr_rnd_t rounding) {
    mpfr_sqrt_ui(scratch, 2, MPFR_RNDN);
    mpfr_div(scratch, x, scratch, MPFR_RNDN);
    mpfr_neg(scratch, scratch, MPFR_RNDN);
    mpfr_erfc(out, scratch, rounding);
    mpfr_div_ui(out, out, 2, rounding);
}

}  // namespace

double gdp_delta_upper_bound(double mu, double epsilon) {
    if (!std::isfinite(mu) || mu <= 0.0)
        throw ValidationError(fmt::format("gdp_delta_upper_bound: mu must be a finite number > 0, got {}", mu));
    if (!std::isfinite(epsilon) || epsilon < 0.0)
        throw ValidationError(
            fmt::format("gdp_delta_upper_bound: epsilon must be a finite number >= 0, got {}", epsilon));
    WidestExponentRange range;
    // A few hundred bits settle ordinary parameters; tiny μ or δ need about log2(1/δ) more.
    constexpr std::array<mpfr_prec_t, 5> kPrecisions = {128, 512, 2048, 8192, 32768};
    for (const mpfr_prec_t precision : kPrecisions) {
        MpfrScratch v(precision);
        mpfr_ptr m = v[0], e = v[1], a = v[2], b = v[3], upper = v[4], lower = v[5], delta = v[6], tmp = v[7];
        mpfr_set_d(m, mu, MPFR_RNDN);  // doubles are exact in any precision ≥ 53
        mpfr_set_d(e, epsilon, MPFR_RNDN);
        mpfr_div(tmp, e, m, MPFR_RNDN);       // ε/μ
        mpfr_div_ui(delta, m, 2, MPFR_RNDN);  // μ/2 (delta is free until the end)
        mpfr_sub(a, delta, tmp, MPFR_RNDN);   // a = −ε/μ + μ/2
        mpfr_add(b, delta, tmp, MPFR_RNDN);
        mpfr_neg(b, b, MPFR_RNDN);  // b = −ε/μ − μ/2
        normal_cdf(upper, a, tmp, MPFR_RNDU);
        // e^ε Φ(b) as exp(ε + log Φ(b)): e^ε alone overflows for the ε of a huge μ, the product not.
        normal_cdf(lower, b, tmp, MPFR_RNDD);
        mpfr_log(lower, lower, MPFR_RNDN);  // −inf when Φ(b) left the range: the term becomes 0
        mpfr_add(lower, lower, e, MPFR_RNDN);
        mpfr_exp(lower, lower, MPFR_RNDN);
        mpfr_sub(delta, upper, lower, MPFR_RNDN);

        // Each term carries a relative error of a few units in the last place, amplified by how
        // steeply erfc and exp respond to their arguments' own rounding (|x|² and ε); 2^10 covers
        // the handful of roundings with room to spare.
        const double a_d = mpfr_get_d(a, MPFR_RNDN), b_d = mpfr_get_d(b, MPFR_RNDN);
        const double amplification = 1.0 + a_d * a_d + b_d * b_d + epsilon;
        mpfr_add(tmp, upper, lower, MPFR_RNDU);
        mpfr_mul_d(tmp, tmp, amplification, MPFR_RNDU);
        mpfr_mul_2si(tmp, tmp, 10 - static_cast<long>(precision), MPFR_RNDU);  // the error allowance
        const bool settled =
            mpfr_sgn(delta) > 0 && mpfr_cmp(tmp, delta) <= 0 && mpfr_get_exp(delta) - mpfr_get_exp(tmp) >= 30;
        if (settled || precision == kPrecisions.back()) {
            mpfr_add(delta, delta, tmp, MPFR_RNDU);
            if (mpfr_nan_p(delta) || mpfr_cmp_ui(delta, 1) >= 0) return 1.0;  // nothing better is known
            if (mpfr_sgn(delta) <= 0) return 0.0;
            return mpfr_get_d(delta, MPFR_RNDU);  // never 0 for a positive bound
        }
    }
    return 1.0;  // not reached: the last precision always returns
}

}  // namespace dpbo
