// Von Neumann's exact exponential sampler ("Various techniques used in connection with random
// digits", 1951). For x uniform, the longest run x > U1 > U2 > ... > Un has an even length with
// probability exp(−x) (P(n ≥ i) = x^i / i!). A trial therefore succeeds with probability
// 1 − exp(−1); k counts the failed trials before the first success, so P(k) = exp(−k)(1 − exp(−1)),
// and the successful x has density exp(−x)/(1 − exp(−1)) on [0, 1): k + x ~ Exp(1).
//
// Starting the count at K0 instead of 0 gives K0 + Exp(1), which by memorylessness is exactly
// Exp(1) conditioned on ⌊E⌋ ≥ K0 — the same steps serve the tail tests.
#include "exact_draw.hpp"

namespace dpbo::privacy::detail {

void sample_exact_laplace(ExactDraw& draw, std::uint64_t min_integer, RandomBits& bits) {
    LazyUniform run[2];
    std::uint64_t k = min_integer;
    for (;; ++k) {
        draw.fraction.reset();
        LazyUniform* last = &draw.fraction;
        LazyUniform* candidate = &run[0];
        LazyUniform* spare = &run[1];
        bool even = true;
        for (;;) {
            candidate->reset();
            if (!less(*candidate, *last, bits)) break;
            even = !even;
            last = candidate;
            std::swap(candidate, spare);
        }
        if (even) break;
    }
    draw.integer = k;
    draw.negative = bits.bit();
}

}  // namespace dpbo::privacy::detail
