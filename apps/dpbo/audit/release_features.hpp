#pragma once
// What a distinguisher may look at in one released double: its value, and its representation —
// Mironov (2012) showed that floating-point noise leaves the input's trace in exactly these: the low
// bits of the IEEE-754 mantissa, how many of them are zero, the exponent, and the finest grid 2^j·ℤ
// the number lies on (which set of doubles a release can take depends on the input).
#include <cstdint>
#include <string>
#include <vector>

namespace dpbo::audit {

enum class FeatureKind {
    Value,          // the number itself (thresholds only)
    LowBits,        // the lowest `bits` bits of the 52-bit mantissa field
    TrailingZeros,  // trailing zero bits of the mantissa field (52 for a zero field)
    Exponent,       // the biased 11-bit exponent field
    FinestGrid,     // the largest j with x ∈ 2^j·ℤ (zero, infinities and NaN get their own codes)
};

struct Feature {
    FeatureKind kind = FeatureKind::Value;
    int bits = 0;  // LowBits only: 1 … 16

    // Categorical features have a finite set of codes, on which likelihood-ratio sets are learnt;
    // ordinal ones (every kind but LowBits) also get thresholds.
    bool categorical() const { return kind != FeatureKind::Value; }
    bool ordinal() const { return kind != FeatureKind::LowBits; }
    std::string name() const;  // "low 8 bits", "grid 2^j·ℤ", ...
    // The feature of x: the value itself for Value, else an integer code (exact in a double).
    double of(double x) const;
};

// Value, low 1 … 16 bits, trailing zeros, exponent, finest grid: what every coordinate is tested on.
std::vector<Feature> audited_features();

}  // namespace dpbo::audit
