#include "grid_rounding.hpp"

#include <algorithm>

namespace dpbo::privacy::detail {

namespace {

// The grid has about 2^40 points per noise scale, so after 48 digits a cell of the draw spans at most
// 2^-8 of a grid step and is decided with probability at least 1 − 2^-8; each further 8 digits
// divide what is left by 256.
constexpr std::size_t kFirstDigits = 48;
constexpr std::size_t kMoreDigits = 8;

}  // namespace

double round_to_grid(const GridProblem& problem, ExactDraw& draw, RandomBits& bits) {
    draw.fraction.extend_to(std::max(draw.fraction.known(), kFirstDigits), bits);
    for (;;) {
        Rounding rounding = round_fixed_width(problem, draw);
        if (rounding.outcome == RoundingOutcome::out_of_range) rounding = round_bignum(problem, draw);
        if (rounding.outcome == RoundingOutcome::decided) return rounding.release;
        draw.fraction.extend_to(draw.fraction.known() + kMoreDigits, bits);
    }
}

}  // namespace dpbo::privacy::detail
