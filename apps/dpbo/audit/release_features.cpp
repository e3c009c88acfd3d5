#include "release_features.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

namespace dpbo::audit {

namespace {

constexpr std::uint64_t kMantissaMask = (std::uint64_t{1} << 52) - 1;
constexpr int kMaxLowBits = 16;
// Finest-grid codes for values that lie on no grid 2^j·ℤ, or on all of them (zero); outside the
// range of j a finite double can have (−1074 … 971).
constexpr double kGridOfZero = 2000.0;
constexpr double kGridOfNonFinite = 3000.0;

}  // namespace

std::string Feature::name() const {
    switch (kind) {
        case FeatureKind::Value:
            return "value";
        case FeatureKind::LowBits:
            return fmt::format("low {} bit{} of the mantissa", bits, bits == 1 ? "" : "s");
        case FeatureKind::TrailingZeros:
            return "trailing zeros of the mantissa";
        case FeatureKind::Exponent:
            return "exponent";
        case FeatureKind::FinestGrid:
            return "finest grid 2^j·ℤ";
    }
    return "unknown";
}

double Feature::of(double x) const {
    const auto bits_of = std::bit_cast<std::uint64_t>(x);
    const std::uint64_t mantissa = bits_of & kMantissaMask;
    const auto exponent = static_cast<int>((bits_of >> 52) & 0x7ff);
    switch (kind) {
        case FeatureKind::Value:
            return x;
        case FeatureKind::LowBits:
            return static_cast<double>(mantissa & ((std::uint64_t{1} << bits) - 1));
        case FeatureKind::TrailingZeros:
            return mantissa == 0 ? 52.0 : static_cast<double>(std::countr_zero(mantissa));
        case FeatureKind::Exponent:
            return static_cast<double>(exponent);
        case FeatureKind::FinestGrid: {
            if (!std::isfinite(x)) return kGridOfNonFinite;
            if (x == 0.0) return kGridOfZero;
            // x = significand · 2^(exponent − 1075) for normal numbers (implicit leading bit), and
            // mantissa · 2^−1074 for subnormal ones.
            const std::uint64_t significand = exponent == 0 ? mantissa : (mantissa | (std::uint64_t{1} << 52));
            const int scale = exponent == 0 ? -1074 : exponent - 1075;
            return static_cast<double>(scale + std::countr_zero(significand));
        }
    }
    return 0.0;
}

std::vector<Feature> audited_features() {
    std::vector<Feature> features = {{FeatureKind::Value, 0}};
    for (int k = 1; k <= kMaxLowBits; ++k) features.push_back({FeatureKind::LowBits, k});
    features.push_back({FeatureKind::TrailingZeros, 0});
    features.push_back({FeatureKind::Exponent, 0});
    features.push_back({FeatureKind::FinestGrid, 0});
    return features;
}

}  // namespace dpbo::audit
