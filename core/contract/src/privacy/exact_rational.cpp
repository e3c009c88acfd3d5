#include "exact_rational.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dyadic.hpp"

namespace dpbo::privacy::detail {

Rational to_rational(Ratio ratio, std::string_view what, bool positive) {
    const bool numerator_ok =
        std::isfinite(ratio.numerator) && (positive ? ratio.numerator > 0.0 : ratio.numerator >= 0.0);
    if (!numerator_ok || !std::isfinite(ratio.denominator) || !(ratio.denominator > 0.0)) {
        throw ValidationError(
            fmt::format("{}: {:.17g} / {:.17g} is not allowed; the numerator must be a finite "
                        "number {} 0 and the denominator a finite number > 0",
                        what, ratio.numerator, ratio.denominator, positive ? ">" : ">="));
    }
    // a·2^i / (b·2^j) = a·2^(i−j) / b or a / (b·2^(j−i)).
    const Dyadic top = to_dyadic(ratio.numerator);
    const Dyadic bottom = to_dyadic(ratio.denominator);
    Rational result{static_cast<long>(top.mantissa), static_cast<long>(bottom.mantissa)};
    const long shift = static_cast<long>(top.exponent) - bottom.exponent;
    mpz_class& grown = shift >= 0 ? result.numerator : result.denominator;
    mpz_mul_2exp(grown.get_mpz_t(), grown.get_mpz_t(), static_cast<mp_bitcnt_t>(shift >= 0 ? shift : -shift));
    if (result.numerator == 0) result.denominator = 1;
    return result;
}

}  // namespace dpbo::privacy::detail
