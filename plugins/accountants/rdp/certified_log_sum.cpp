#include "certified_log_sum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpbo::rdp {

void CertifiedRdpSum::add(double log_term, double log_error) {
    logs_.push_back(log_term);
    largest_error_ = std::max(largest_error_, log_error);
}

double CertifiedRdpSum::rdp(double alpha) {
    constexpr double u = kUnitRoundoff;
    constexpr double infinity = std::numeric_limits<double>::infinity();
    certified_ = false;
    if (logs_.empty()) {
        certified_ = true;
        return 0.0;
    }
    const double largest = *std::max_element(logs_.begin(), logs_.end());
    if (!std::isfinite(largest) || !std::isfinite(largest_error_)) return infinity;
    // S = Σ e^{l_k − m} ≥ 1 (the largest term is 1). Each shifted exponent errs by its log's error plus
    // the subtraction's u·|l_k − m|; each exponential by 2u (an underflow to 0 or a subnormal loses at
    // most 2^-1074 absolute, below u·S); the sum by 1.01·n·u relative.
    double sum = 0.0, worst_shift_error = 0.0;
    for (const double l : logs_) {
        const double shift = l - largest;
        worst_shift_error = std::max(worst_shift_error, u * std::fabs(shift));
        sum += std::exp(shift);
    }
    const auto n = static_cast<double>(logs_.size());
    const double log_sum = std::log(sum);  // ≥ 0
    const double total = largest + log_sum;
    // Bound on |log Σ e^{l_k*} − total|, the exact logs l_k* within their errors: the terms' errors,
    // exp's 2u, the sum's, log's 2u·log S, and the final addition's u·|total|.
    double error = largest_error_ + worst_shift_error + 2.0 * u + sum_rounding(1.0, n) + u + 2.0 * u * log_sum +
                   u * std::fabs(total);
    error *= 1.01;  // the bound's own roundings
    // ε = log1p(e^{total + error})/(α − 1): the shifted argument's rounding (u·|·|) changes e^{·} by
    // that much relatively, and log1p passes a relative change of its argument on at most as large
    // (x/(1 + x) ≤ log1p(x)); exp, log1p and the division add 2u, 2u and u.
    const double upper_log = total + error;
    const double excess = std::exp(upper_log);
    if (!std::isfinite(excess)) {
        // e^{total} beyond a double: log1p(e^x) = x + log1p(e^{−x}), itself within 3u|x| of its value.
        const double value = (upper_log + std::log1p(std::exp(-upper_log))) / (alpha - 1.0);
        const double relative = 2.0 * error / std::max(upper_log, 1.0) + 8.0 * u;
        certified_ = relative <= kCertifiedRelative && std::isfinite(value);
        return std::nextafter(value * (1.0 + relative), infinity);
    }
    const double value = std::log1p(excess) / (alpha - 1.0);
    // Relative distance from the exact ε: `error` in the log, passed on at most one for one, plus the
    // roundings here (the upper_log's u·|upper_log| and 5u of the last three operations, doubled).
    const double rounding = u * std::fabs(upper_log) + 10.0 * u;
    // The exact logs lie within ±error of `total`, so the exact ε within 2·error (relative) of this one.
    certified_ = 2.0 * error + rounding <= kCertifiedRelative;
    return std::nextafter(value * (1.0 + rounding), infinity);
}

}  // namespace dpbo::rdp
