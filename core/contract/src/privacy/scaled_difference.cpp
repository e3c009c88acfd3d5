// Bernoulli(exp(−γ)) for γ = factor · (larger − smaller) / divisor, with γ formed exactly: every
// finite double is a dyadic rational, which mpq_class(double) holds without rounding (GMP manual,
// mpq_set_d), and sums, products and quotients of rationals are exact.
#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "exact_rational.hpp"

namespace dpbo::privacy {

namespace detail {

Rational to_rational(const ScaledDifference& gamma) {
    constexpr const char* kWho = "bernoulli_exp_minus_difference";
    if (!std::isfinite(gamma.factor) || gamma.factor < 0.0)
        throw ValidationError(fmt::format(
            "{}: factor = {:.17g} is not allowed; the factor must be a finite number >= 0", kWho, gamma.factor));
    if (!std::isfinite(gamma.divisor) || !(gamma.divisor > 0.0))
        throw ValidationError(
            fmt::format("{}: divisor = {:.17g} is not allowed; the divisor must be a finite number "
                        "> 0",
                        kWho, gamma.divisor));
    // The two values are the caller's data (scores): checked, but never printed.
    if (!std::isfinite(gamma.larger) || !std::isfinite(gamma.smaller))
        throw RunError(
            fmt::format("{}: a value of the difference is not finite (values not shown: they may be "
                        "sensitive)",
                        kWho));
    if (gamma.larger < gamma.smaller)
        throw RunError(
            fmt::format("{}: the difference larger - smaller is negative (values not shown: they may be "
                        "sensitive)",
                        kWho));
    const mpq_class exact =
        mpq_class(gamma.factor) * (mpq_class(gamma.larger) - mpq_class(gamma.smaller)) / mpq_class(gamma.divisor);
    return Rational{exact.get_num(), exact.get_den()};
}

}  // namespace detail

bool bernoulli_exp_minus_difference(const ScaledDifference& gamma, PrivacyNoiseSource& noise) {
    const detail::Rational exact = detail::to_rational(gamma);
    detail::RandomBits bits(noise);
    return detail::bernoulli_exp_minus(exact, bits);
}

}  // namespace dpbo::privacy
