// The grid rounding in 128-bit integers. Every quantity is counted in units of 2^-Q of a grid step,
// Q = c + n, where scale/g = S · 2^-c (S the scale's 53-bit mantissa) and n is the number of known
// digits of the draw's fraction u. The draw's possible values form the interval
// ±(K + [m, m + 1)/2^n), so t = (value + scale·Z)/g + 1/2 lies in an open interval
// (lo + δ, lo + S + δ)/2^Q: lo is an integer and δ in [0, 1) holds the bits of value/g that lie below
// 2^-Q (only value/g can have any). k = ⌊t⌋ is decided when no integer multiple of 2^Q lies inside.
//
// Sizes: S < 2^53, K < 2^6 and n ≤ 64 keep S·(K·2^n + m + 1) below 2^124, and Q ≤ 77 keeps the
// other terms far smaller; anything larger is reported out of range for the GMP version.
#include "dyadic.hpp"
#include "grid_rounding.hpp"

namespace dpbo::privacy::detail {

namespace {

__extension__ typedef __int128 int128;  // a GCC extension; -Wpedantic would flag it

constexpr std::uint64_t kLargestInteger = 63;  // K < 2^6
constexpr std::size_t kMostDigits = 64;
constexpr int kMostScaleBits = 13;  // c ≤ 13: release_grid gives 12 or 13

// ⌊v / 2^shift⌋ and whether the division is exact.
int128 floor_shift(int128 v, int shift) {
    if (shift >= 127) return v < 0 ? -1 : 0;
    return v >> shift;  // arithmetic: rounds towards −∞
}

bool divisible(int128 v, int shift) {
    if (shift >= 127) return v == 0;
    return (v & ((int128{1} << shift) - 1)) == 0;
}

}  // namespace

Rounding round_fixed_width(const GridProblem& problem, const ExactDraw& draw) {
    const std::size_t n = draw.fraction.known();
    const Dyadic scale = to_dyadic(problem.scale);
    const int c = problem.grid_exponent - scale.exponent;
    if (draw.integer > kLargestInteger || n > kMostDigits || c < 1 || c > kMostScaleBits) {
        return {RoundingOutcome::out_of_range, 0.0};
    }
    const int q_bits = c + static_cast<int>(n);

    // value/g = I + f with I an integer and f in [0, 1); released as g·I + g·j with j from t − I.
    const Dyadic value = to_dyadic(problem.value);
    const int shift = problem.grid_exponent - value.exponent;  // value/g = X / 2^shift
    double grid_part = problem.value;                          // g·I
    int128 low = 0;                                            // ⌊f · 2^Q⌋
    bool sticky = false;                                       // δ > 0
    if (value.mantissa != 0 && shift > 0) {
        const int128 x = value.mantissa;
        const int128 whole = floor_shift(x, shift);
        if (q_bits >= shift) {
            low = (x - whole * (int128{1} << shift)) << (q_bits - shift);
        } else {
            low = floor_shift(x, shift - q_bits) - whole * (int128{1} << q_bits);
            sticky = !divisible(x, shift - q_bits);
        }
        // |I| ≤ 2^53, so g·I is a double exactly.
        grid_part = std::ldexp(static_cast<double>(whole), problem.grid_exponent);
    }

    const int128 width = scale.mantissa;
    const int128 cell = (static_cast<int128>(draw.integer) << n) + static_cast<int128>(draw.fraction.head());
    const int128 base = low + (int128{1} << (q_bits - 1));
    const int128 lo = draw.negative ? base - width * (cell + 1) : base + width * cell;
    const int128 hi = lo + width;
    const int128 j = floor_shift(lo, q_bits);
    const int128 next_multiple = (j + 1) * (int128{1} << q_bits);
    const bool decided = sticky ? hi < next_multiple : hi <= next_multiple;
    if (!decided) return {RoundingOutcome::undecided, 0.0};
    // |j| < 2^53 here (|t| < 2^47), so g·j is exact and the sum is rounded once: the double
    // nearest to g·(I + j).
    return {RoundingOutcome::decided, grid_part + std::ldexp(static_cast<double>(j), problem.grid_exponent)};
}

}  // namespace dpbo::privacy::detail
