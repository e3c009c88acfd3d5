#pragma once
// Rounds value + scale·(exact draw) to the nearest point g·k of the grid g = 2^grid_exponent,
// exactly: the draw's digits are extended until every real they still allow rounds to the same k,
// and the release is the double nearest to g·k — a function of k alone. Two implementations of the
// same arithmetic: fixed-width 128-bit integers for the common case, GMP for everything else.
#include "exact_draw.hpp"
#include "random_bits.hpp"

namespace dpbo::privacy::detail {

struct GridProblem {
    double value = 0.0;     // finite
    double scale = 1.0;     // finite, > 0
    int grid_exponent = 0;  // g = 2^grid_exponent, a normal double
};

enum class RoundingOutcome {
    decided,       // `release` holds the answer
    undecided,     // more digits of the draw are needed
    out_of_range,  // (fixed-width only) the numbers do not fit in 128 bits: use the GMP version
};

struct Rounding {
    RoundingOutcome outcome = RoundingOutcome::undecided;
    double release = 0.0;
};

// Both look only at the digits already drawn and never draw more.
Rounding round_fixed_width(const GridProblem& problem, const ExactDraw& draw);
Rounding round_bignum(const GridProblem& problem, const ExactDraw& draw);

// Draws digits as needed and returns the release.
double round_to_grid(const GridProblem& problem, ExactDraw& draw, RandomBits& bits);

}  // namespace dpbo::privacy::detail
