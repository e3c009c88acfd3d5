#pragma once
// A finite double as the exact dyadic rational mantissa · 2^exponent, |mantissa| < 2^53.
#include <cmath>
#include <cstdint>

namespace dpbo::privacy::detail {

struct Dyadic {
    std::int64_t mantissa = 0;
    int exponent = 0;
};

inline Dyadic to_dyadic(double value) {
    if (value == 0.0) return {};
    int exponent = 0;
    const double fraction = std::frexp(value, &exponent);  // exact: value = fraction · 2^exponent
    return {static_cast<std::int64_t>(std::ldexp(fraction, 53)), exponent - 53};
}

}  // namespace dpbo::privacy::detail
