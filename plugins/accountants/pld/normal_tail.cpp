#include "normal_tail.hpp"

#include <cmath>
#include <numbers>

namespace dpbo::pld {

double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::numbers::sqrt2); }

double log_normal_cdf(double x) {
    if (x > -37.0) return std::log(normal_cdf(x));
    // Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − 945/x¹⁰ + …) (Abramowitz & Stegun 26.2.12);
    // below −37 the first omitted term, 10395/x¹², is under 1e-15 of the sum.
    const double r = 1.0 / (x * x);
    const double series = 1.0 + r * (-1.0 + r * (3.0 + r * (-15.0 + r * (105.0 + r * -945.0))));
    return -0.5 * x * x - std::log(-x) - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(series);
}

double normal_quantile_from_log(double log_probability) {
    double low = -1.0;
    while (log_normal_cdf(low) > log_probability) low *= 2.0;
    double high = 0.0;
    for (int i = 0; i < 200 && high - low > 1e-14 * -low; ++i) {
        const double middle = 0.5 * (low + high);
        (log_normal_cdf(middle) > log_probability ? high : low) = middle;
    }
    return low;  // Φ(low) ≤ the target: the truncated tail is never larger than asked
}

}  // namespace dpbo::pld
