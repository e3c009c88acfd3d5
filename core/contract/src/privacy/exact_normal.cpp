// Karney's algorithm N ("Sampling exactly from the normal distribution", ACM TOMS 42(1), 2016),
// generalised to start at a least integer part K0 for tests of the tails.
//
// The density of |Z| at k + x (k integer, x in [0, 1)) is proportional to exp(−(k + x)²/2). With
// k = K0 + j and the constant exp(−K0²/2) dropped this is
//     exp(−j(2K0 + 1)/2) · exp(−j(j − 1)/2) · exp(−x(2k + x)/2),
// three factors drawn as three steps, each from Bernoulli trials with exactly that probability:
//   1. j ≥ 0 geometric: count successes of Bernoulli(exp(−(2K0 + 1)/2)), i.e. of runs of 2K0 + 1
//      trials of Bernoulli(exp(−1/2));
//   2. accept with exp(−j(j − 1)/2): j(j − 1) trials of Bernoulli(exp(−1/2));
//   3. draw x uniform and accept with exp(−x(2k + x)/2): k + 1 trials of algorithm B, each true with
//      probability exp(−x(2k + x)/(2k + 2));
// and after a rejection everything starts again from step 1 (at K0). With K0 = 0 these are exactly
// Karney's steps N1–N4. Starting Karney's own geometric count at K0 would give the same law, but
// its step 2 would then accept with exp(−K0(K0 − 1)/2) ≈ 2e-16 at K0 = 9: no test could wait that
// long. Here step 3 accepts with probability about 1/(K0 + 1), so the far tail costs little more.
#include "exact_draw.hpp"

namespace dpbo::privacy::detail {

namespace {

// Bernoulli(exp(−1/2)) by von Neumann's method: the longest run 1/2 > U1 > U2 > ... > Un has an even
// length n with probability exp(−1/2) (P(n ≥ i) = (1/2)^i / i!).
bool bernoulli_exp_minus_half(LazyUniform& previous, LazyUniform& next, RandomBits& bits) {
    previous.reset();
    if (previous.digit(0, bits)) return true;  // U1 ≥ 1/2: the run is empty
    bool even = false;                         // the run has length 1 so far
    LazyUniform* last = &previous;
    LazyUniform* candidate = &next;
    for (;;) {
        candidate->reset();
        if (!less(*candidate, *last, bits)) return even;
        even = !even;
        std::swap(last, candidate);
    }
}

// Algorithm B: true with probability exp(−x(2k + x)/(2k + 2)). Counts the longest run
// x > Z1 > Z2 > ... > Zn in which every step also passes an independent Bernoulli((2k + x)/(2k + 2));
// P(n ≥ i) = (x(2k + x)/(2k + 2))^i / i!, so n is even with the wanted probability. The Bernoulli is
// an integer f uniform in [0, 2k + 2): f < 2k passes, f = 2k passes when a fresh uniform is below x.
bool karney_b(std::uint64_t k, LazyUniform& x, LazyUniform (&scratch)[3], RandomBits& bits) {
    LazyUniform* last = &x;
    LazyUniform* candidate = &scratch[0];
    LazyUniform* spare = &scratch[1];
    LazyUniform& coin = scratch[2];
    bool even = true;
    for (;;) {
        candidate->reset();
        if (!less(*candidate, *last, bits)) return even;
        const std::uint64_t f = bits.uniform_below(2 * k + 2);
        if (f > 2 * k) return even;
        if (f == 2 * k) {
            coin.reset();
            if (!less(coin, x, bits)) return even;
        }
        even = !even;
        last = candidate;
        std::swap(candidate, spare);
    }
}

bool all_trials_pass(std::uint64_t trials, LazyUniform& a, LazyUniform& b, RandomBits& bits) {
    for (std::uint64_t i = 0; i < trials; ++i) {
        if (!bernoulli_exp_minus_half(a, b, bits)) return false;
    }
    return true;
}

}  // namespace

void sample_exact_normal(ExactDraw& draw, std::uint64_t min_integer, RandomBits& bits) {
    LazyUniform a;
    LazyUniform b;
    LazyUniform scratch[3];
    const std::uint64_t trials_per_step = 2 * min_integer + 1;
    for (;;) {
        std::uint64_t j = 0;
        while (all_trials_pass(trials_per_step, a, b, bits)) ++j;
        if (!all_trials_pass(j * (j - 1), a, b, bits)) continue;  // j(j − 1) = 0 for j = 0
        const std::uint64_t k = min_integer + j;
        draw.fraction.reset();
        bool accepted = true;
        for (std::uint64_t round = 0; round <= k && accepted; ++round) {
            accepted = karney_b(k, draw.fraction, scratch, bits);
        }
        if (!accepted) continue;
        draw.integer = k;
        draw.negative = bits.bit();
        return;
    }
}

}  // namespace dpbo::privacy::detail
