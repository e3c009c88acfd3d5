// How many trials a private selection runs: K's distribution read from text, its parameter γ, its
// probabilities and quantiles, and K drawn from the secure layer.
//
// The draw is exact: K is the first k whose distribution function F(k) exceeds a uniform U whose
// binary digits are drawn lazily from the privacy keystream; F(k) is summed in MPFR with a rigorous
// bound on its rounding error, and whenever U's known digits do not decide U < F(k) against that
// bound, more digits are drawn and F is recomputed at twice the precision. So P(K = k) is exactly
// the stated distribution's (for γ = gamma(), the γ every accountant uses), with no slack to charge.
#include "dpbo/privacy/trial_count.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <mpfr.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"
#include "random_bits.hpp"

namespace dpbo {

namespace {

using Family = TrialCount::Family;

constexpr const char* kAllowed =
    "fixed:k=K, geometric:mean=M, logarithmic:mean=M, negative-binomial:mean=M,eta=E or poisson:mean=M";

[[noreturn]] void refuse(std::string_view text, const std::string& why) {
    throw ValidationError(fmt::format("trial count '{}': {}", text, why));
}

double number(std::string_view text, const std::string& key, const std::string& value) {
    char* end = nullptr;
    const double out = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(out))
        refuse(text, fmt::format("'{}' = '{}' is not a finite number", key, value));
    return out;
}

bool is_tnb(const TrialCount& count) { return count.family == Family::TruncatedNegativeBinomial; }

// E[K] of the truncated negative binomial at γ ∈ (0, 1): η(1−γ)/(γ(1−γ^η)), and
// (1−γ)/(γ·log(1/γ)) at η = 0.
double tnb_mean(double gamma, double eta) {
    const double log_gamma = std::log(gamma);
    if (eta == 0.0) return (1.0 - gamma) / (gamma * -log_gamma);
    return eta * (1.0 - gamma) / (gamma * -std::expm1(eta * log_gamma));
}

// --- the lazy inversion --------------------------------------------------------------------------

class Mpfr {
public:
    explicit Mpfr(mpfr_prec_t precision) { mpfr_init2(value_, precision); }
    ~Mpfr() { mpfr_clear(value_); }
    Mpfr(const Mpfr&) = delete;
    Mpfr& operator=(const Mpfr&) = delete;
    mpfr_ptr operator*() { return value_; }

private:
    mpfr_t value_;
};

enum class Decision { Below, Above, Undecided };

// U's known digits: U ∈ [u, u + 2^-64n) for n words, compared with F ± bound.
Decision compare(const std::vector<std::uint64_t>& words, mpfr_ptr cdf, mpfr_ptr bound, mpfr_prec_t precision) {
    const mpfr_prec_t width = static_cast<mpfr_prec_t>(64 * words.size());
    Mpfr u(width + 2), u_top(width + 2), low(precision), high(precision), part(64);
    mpfr_set_zero(*u, 1);
    for (std::size_t i = 0; i < words.size(); ++i) {
        mpfr_set_ui_2exp(*part, words[i], -64 * static_cast<long>(i + 1), MPFR_RNDN);  // exact
        mpfr_add(*u, *u, *part, MPFR_RNDN);                                            // exact at width + 2
    }
    mpfr_set_ui_2exp(*part, 1, -width, MPFR_RNDN);
    mpfr_add(*u_top, *u, *part, MPFR_RNDN);  // exact
    mpfr_sub(*low, cdf, bound, MPFR_RNDD);
    mpfr_add(*high, cdf, bound, MPFR_RNDU);
    if (mpfr_lessequal_p(*u_top, *low)) return Decision::Below;  // U < F(k)
    if (mpfr_greaterequal_p(*u, *high)) return Decision::Above;  // U ≥ F(k)
    return Decision::Undecided;
}

// One pass over k at `precision`: the first k with U < F(k), or 0 with `undecided` set when U's
// digits cannot tell at some k. The rounding error of F(k) is below (32(1 + |x|) + 8k + 64)·2^-p,
// x the exponent of the first term: each of the ≤ 4 correctly rounded operations per term adds half
// an ulp to the term's relative error, each sum half an ulp of F, and the first term's exp/expm1
// of a value carrying 2 ulps of error adds at most 2(1 + |x|) ulps.
std::uint64_t inversion_pass(const TrialCount& count, double gamma, const std::vector<std::uint64_t>& words,
                             mpfr_prec_t precision, bool& undecided) {
    Mpfr term(precision), cdf(precision), ratio(precision), scratch(precision), one_minus_gamma(precision), bound(64);
    double first_exponent = 0.0;
    std::uint64_t k = 1;
    if (count.family == Family::Poisson) {
        k = 0;
        mpfr_set_d(*scratch, -count.mean, MPFR_RNDN);
        mpfr_exp(*term, *scratch, MPFR_RNDN);
        first_exponent = count.mean;
    } else {
        mpfr_set_d(*one_minus_gamma, 1.0, MPFR_RNDN);
        mpfr_sub_d(*one_minus_gamma, *one_minus_gamma, gamma, MPFR_RNDN);
        mpfr_set_d(*scratch, gamma, MPFR_RNDN);
        mpfr_log(*scratch, *scratch, MPFR_RNDN);  // log γ < 0
        if (count.eta == 0.0) {
            // P(K = 1) = (1 − γ)/log(1/γ)
            mpfr_neg(*scratch, *scratch, MPFR_RNDN);
            mpfr_div(*term, *one_minus_gamma, *scratch, MPFR_RNDN);
        } else {
            // P(K = 1) = η(1 − γ)γ^η/(1 − γ^η)
            mpfr_mul_d(*scratch, *scratch, count.eta, MPFR_RNDN);  // x = η log γ
            first_exponent = std::fabs(mpfr_get_d(*scratch, MPFR_RNDN));
            mpfr_exp(*term, *scratch, MPFR_RNDN);
            mpfr_expm1(*scratch, *scratch, MPFR_RNDN);
            mpfr_neg(*scratch, *scratch, MPFR_RNDN);
            mpfr_div(*term, *term, *scratch, MPFR_RNDN);
            mpfr_mul(*term, *term, *one_minus_gamma, MPFR_RNDN);
            mpfr_mul_d(*term, *term, count.eta, MPFR_RNDN);
        }
    }
    mpfr_set(*cdf, *term, MPFR_RNDN);
    for (;; ++k) {
        const double slack = 32.0 * (1.0 + first_exponent) + 8.0 * static_cast<double>(k) + 64.0;
        mpfr_set_d(*bound, slack, MPFR_RNDU);
        mpfr_mul_2si(*bound, *bound, -precision, MPFR_RNDU);
        switch (compare(words, *cdf, *bound, precision)) {
            case Decision::Below:
                return k;
            case Decision::Undecided:
                undecided = true;
                return 0;
            case Decision::Above:
                break;
        }
        // The next term: P(k + 1) = P(k)·μ/(k + 1) (Poisson), P(k)·(1 − γ)(k + η)/(k + 1) (TNB).
        if (count.family == Family::Poisson) {
            mpfr_set_d(*ratio, count.mean, MPFR_RNDN);
        } else {
            mpfr_set_ui(*ratio, k, MPFR_RNDN);
            mpfr_add_d(*ratio, *ratio, count.eta, MPFR_RNDN);
            mpfr_mul(*ratio, *ratio, *one_minus_gamma, MPFR_RNDN);
        }
        mpfr_div_ui(*ratio, *ratio, k + 1, MPFR_RNDN);
        mpfr_mul(*term, *term, *ratio, MPFR_RNDN);
        mpfr_add(*cdf, *cdf, *term, MPFR_RNDN);
    }
}

}  // namespace

TrialCount TrialCount::parse(std::string_view text) {
    const auto colon = text.find(':');
    const std::string name(text.substr(0, colon));
    std::map<std::string, std::string> values;
    if (colon != std::string_view::npos) {
        std::string_view body = text.substr(colon + 1);
        while (true) {
            const auto comma = body.find(',');
            const std::string item(body.substr(0, comma));
            const auto eq = item.find('=');
            if (eq == std::string::npos || eq == 0) refuse(text, fmt::format("'{}' is not key=value", item));
            if (!values.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
                refuse(text, fmt::format("key '{}' is given twice", item.substr(0, eq)));
            if (comma == std::string_view::npos) break;
            body = body.substr(comma + 1);
        }
    }
    TrialCount out;
    std::vector<std::string> keys;
    if (name == "fixed") {
        out.family = Family::Fixed;
        keys = {"k"};
    } else if (name == "geometric" || name == "logarithmic") {
        out.family = Family::TruncatedNegativeBinomial;
        out.eta = name == "geometric" ? 1.0 : 0.0;
        keys = {"mean"};
    } else if (name == "negative-binomial") {
        out.family = Family::TruncatedNegativeBinomial;
        keys = {"mean", "eta"};
    } else if (name == "poisson") {
        out.family = Family::Poisson;
        keys = {"mean"};
    } else {
        refuse(text, fmt::format("unknown distribution '{}'; allowed: {}", name, kAllowed));
    }
    for (const auto& [key, value] : values)
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
            refuse(text,
                   fmt::format("distribution '{}' has no key '{}'; its keys: {}", name, key, fmt::join(keys, ", ")));
    for (const std::string& key : keys)
        if (!values.count(key)) refuse(text, fmt::format("distribution '{}' needs key '{}'", name, key));
    out.mean = number(text, keys.front(), values.at(keys.front()));
    if (name == "negative-binomial") out.eta = number(text, "eta", values.at("eta"));
    try {
        out.validate();
    } catch (const ValidationError& e) {
        refuse(text, e.what());
    }
    return out;
}

std::string TrialCount::text() const {
    switch (family) {
        case Family::Fixed:
            return fmt::format("fixed:k={}", event_number(mean));
        case Family::Poisson:
            return fmt::format("poisson:mean={}", event_number(mean));
        case Family::TruncatedNegativeBinomial:
            if (eta == 1.0) return fmt::format("geometric:mean={}", event_number(mean));
            if (eta == 0.0) return fmt::format("logarithmic:mean={}", event_number(mean));
            return fmt::format("negative-binomial:mean={},eta={}", event_number(mean), event_number(eta));
    }
    return {};
}

std::string TrialCount::describe() const {
    switch (family) {
        case Family::Fixed:
            return fmt::format("K = {} (fixed: composition)", event_number(mean));
        case Family::Poisson:
            return fmt::format("K ~ Poisson with mean {}", event_number(mean));
        case Family::TruncatedNegativeBinomial:
            if (eta == 1.0) return fmt::format("K ~ geometric with mean {}", event_number(mean));
            if (eta == 0.0) return fmt::format("K ~ logarithmic with mean {}", event_number(mean));
            return fmt::format("K ~ truncated negative binomial with eta {} and mean {}", event_number(eta),
                               event_number(mean));
    }
    return {};
}

void TrialCount::validate() const {
    const char* key = family == Family::Fixed ? "k" : "mean";
    if (!(std::isfinite(mean) && mean >= 1.0))
        throw ValidationError(fmt::format("'{}' = {}; allowed: a finite number >= 1", key, event_number(mean)));
    if (family == Family::Fixed && (std::floor(mean) != mean || mean > 1e15))
        throw ValidationError(fmt::format("'k' = {}; allowed: a whole number >= 1", event_number(mean)));
    if (family == Family::TruncatedNegativeBinomial && !(std::isfinite(eta) && eta >= 0.0))
        throw ValidationError(fmt::format("'eta' = {}; allowed: a finite number >= 0", event_number(eta)));
}

// Never above the γ whose mean is `mean`, as dp_accounting's `_gamma_truncated_negative_binomial`
// errs: a smaller γ has the larger mean and the larger log(1/γ), so every bound computed from it,
// and from the mean of the distribution it defines, holds for the draws made with it.
double TrialCount::gamma() const {
    if (!is_tnb(*this))
        throw RunError(
            fmt::format("trial count '{}': gamma() is defined for the truncated negative "
                        "binomial family only",
                        text()));
    validate();
    if (mean == 1.0) return 1.0;
    if (eta == 1.0) {
        double g = 1.0 / mean;
        if (std::fma(g, mean, -1.0) > 0.0) g = std::nextafter(g, 0.0);
        return g;
    }
    // E[K] falls in γ; 2(η + 1)/mean bounds γ above (max{η, 1/log(1/γ)}(1/γ − 1) ≤ E[K] ≤ 2(η + 1)/γ).
    double low = 0.0, high = std::min(1.0, 2.0 * (eta + 1.0) / mean);
    for (int i = 0; i < 2000 && high > low * (1.0 + 1e-15); ++i) {
        const double middle = low == 0.0 ? high / 2.0 : std::sqrt(low * high);
        if (tnb_mean(middle, eta) < mean)
            high = middle;
        else
            low = middle;
    }
    // The mean is evaluated with a few ulps of error: step below them.
    return low * (1.0 - 1e-12);
}

double TrialCount::probability(std::uint64_t k) const {
    validate();
    const double kk = static_cast<double>(k);
    switch (family) {
        case Family::Fixed:
            return kk == mean ? 1.0 : 0.0;
        case Family::Poisson:
            return std::exp(-mean + kk * std::log(mean) - std::lgamma(kk + 1.0));
        case Family::TruncatedNegativeBinomial: {
            if (k == 0) return 0.0;
            const double g = gamma();
            if (g >= 1.0) return k == 1 ? 1.0 : 0.0;
            const double log_tail = kk * std::log1p(-g);
            if (eta == 0.0) return std::exp(log_tail - std::log(kk) - std::log(-std::log(g)));
            return std::exp(std::lgamma(kk + eta) - std::lgamma(eta) - std::lgamma(kk + 1.0) + log_tail +
                            eta * std::log(g) - std::log(-std::expm1(eta * std::log(g))));
        }
    }
    return 0.0;
}

std::uint64_t TrialCount::quantile(double p) const {
    if (!(p > 0.0 && p < 1.0))
        throw ValidationError(fmt::format("trial count '{}': quantile p = {}; allowed: a number in (0, 1)", text(), p));
    validate();
    if (family == Family::Fixed) return static_cast<std::uint64_t>(mean);
    std::uint64_t k = family == Family::Poisson ? 0 : 1;
    long double cdf = 0.0L;
    for (; k < (std::uint64_t{1} << 40); ++k) {
        cdf += probability(k);
        if (cdf >= p) return k;
    }
    throw RunError(fmt::format("trial count '{}': quantile {} not reached below 2^40", text(), p));
}

std::uint64_t TrialCount::draw(PrivacyNoiseSource& noise) const {
    validate();
    if (family == Family::Fixed) return static_cast<std::uint64_t>(mean);
    const double g = is_tnb(*this) ? gamma() : 0.0;
    if (is_tnb(*this) && g >= 1.0) return 1;
    privacy::detail::RandomBits bits(noise);
    std::vector<std::uint64_t> words{bits.bits(64), bits.bits(64)};
    for (mpfr_prec_t precision = 192;; precision *= 2) {
        bool undecided = false;
        const std::uint64_t k = inversion_pass(*this, g, words, precision, undecided);
        if (!undecided) return k;
        words.push_back(bits.bits(64));
        words.push_back(bits.bits(64));
    }
}

}  // namespace dpbo
