// Permute-and-flip with every coin flipped (see selection_sampling.hpp): the permutation's draws
// depend on n alone, every candidate's bounds are computed and its coin drawn whatever came before,
// and the first heads in the permutation's order is picked by a scan without early exit. Flipping
// the coins after the first heads changes nothing in the result's law — they are independent and
// ignored — but it makes the work the same for any scores of length n.
#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "selection_sampling.hpp"

namespace dpbo::privacy::detail {

namespace {

// A uniform permutation of 0..n−1 (Fisher–Yates with exact uniform integers).
std::vector<std::size_t> uniform_order(std::size_t n, RandomBits& bits) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    for (std::size_t k = 0; k + 1 < n; ++k) std::swap(order[k], order[k + bits.uniform_below(n - k)]);
    return order;
}

// The candidate of the first heads in `order`, scanning all of it: walking backwards, each heads
// overwrites the choice, so the last written is the first heads. The overwrite is a mask, not a
// branch: a branch predictor's misses would count the alternations of heads and tails.
std::size_t first_heads(const std::vector<std::size_t>& order, const std::vector<unsigned char>& heads) {
    std::size_t chosen = order.size();
    for (std::size_t k = order.size(); k-- > 0;) {
        const std::size_t take = std::size_t{0} - static_cast<std::size_t>(heads[k]);  // all ones or zero
        chosen = (order[k] & take) | (chosen & ~take);
    }
    if (chosen == order.size())
        throw RunError("permute-and-flip: no coin came up heads, though the best candidate's always does");
    return chosen;
}

}  // namespace

bool coin_refined(ScoreScale scale, double best, double score, PartialUniform& u, unsigned precision, RandomBits& bits,
                  Refinements* refinements) {
    mpz_class lo;
    mpz_class hi;
    for (;; precision *= 2) {
        if (refinements) ++refinements->levels;
        ExpMinusBounds bounds(scale, best, precision, coin_fraction_bits(precision));
        bounds.bound(score, lo, hi);
        const std::size_t fraction_bits = bounds.fraction_bits();
        u.extend_to(std::max(u.known, fraction_bits), bits);
        // U ∈ [u, u + 1)/2^known and lo/2^F ≤ p ≤ hi/2^F.
        const std::size_t shift = u.known - fraction_bits;
        if (u.digits + 1 <= (lo << shift)) return true;
        if (u.digits >= (hi << shift)) return false;
    }
}

int coin_from_bounds(uint128 u, uint128 lo, uint128 hi) {
    // U ∈ [u, u + 1)/2^96 and lo/2^96 ≤ p ≤ hi/2^96: U < p when u + 1 ≤ lo, U ≥ p when u ≥ hi.
    // Arithmetic on the comparisons, no branch: heads and tails take the same path.
    const int heads = static_cast<int>(u < lo);
    const int undecided = static_cast<int>(u >= lo) & static_cast<int>(u < hi);
    return heads - undecided;
}

std::size_t permute_and_flip_index(const arma::vec& scores, ScoreScale scale, double best, RandomBits& bits,
                                   Refinements* refinements) {
    const std::size_t n = scores.n_elem;
    const std::vector<std::size_t> order = uniform_order(n, bits);
    const FixedExpBounds bounds(scale, best);
    std::vector<unsigned char> heads(n);
    std::vector<std::pair<std::size_t, uint128>> undecided;  // (position, u): rarely any
    uint128 lo = 0;
    uint128 hi = 0;
    for (std::size_t k = 0; k < n; ++k) {
        bounds.bound(scores[order[k]], lo, hi);
        const uint128 high = bits.bits(64);
        const uint128 u = (high << 32) | bits.bits(32);
        const int coin = coin_from_bounds(u, lo, hi);
        heads[k] = static_cast<unsigned char>(coin > 0);
        if (coin < 0) undecided.emplace_back(k, u);  // taken with probability below 2^-60
    }
    for (const auto& [k, u] : undecided) {
        PartialUniform known = PartialUniform::of(u, FixedExpBounds::kFractionBits);
        heads[k] = static_cast<unsigned char>(
            coin_refined(scale, best, scores[order[k]], known, kRefinementPrecision, bits, refinements));
    }
    return first_heads(order, heads);
}

std::size_t permute_and_flip_index_refined(const arma::vec& scores, ScoreScale scale, double best, unsigned precision,
                                           RandomBits& bits, Refinements* refinements) {
    const std::size_t n = scores.n_elem;
    const std::vector<std::size_t> order = uniform_order(n, bits);
    std::vector<unsigned char> heads(n);
    for (std::size_t k = 0; k < n; ++k) {
        PartialUniform u;
        heads[k] =
            static_cast<unsigned char>(coin_refined(scale, best, scores[order[k]], u, precision, bits, refinements));
    }
    return first_heads(order, heads);
}

}  // namespace dpbo::privacy::detail
