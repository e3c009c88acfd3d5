// Permute-and-flip with every coin flipped (see selection_sampling.hpp): the permutation's draws
// depend on n alone, every candidate's bounds are computed and its coin drawn whatever came before,
// and the first heads in the permutation's order is picked by a scan without early exit. Flipping
// the coins after the first heads changes nothing in the result's law — they are independent and
// ignored — but it makes the work the same for any scores of length n.
//
// The coins are flipped in the candidates' own order, each candidate i holding its place in the
// random order, position[i]; the choice is the heads with the smallest place. That is the same law
// (the coins are independent of the order, and a uniform permutation's inverse is uniform) and
// reads the scores front to back, where walking them in the random order would miss the cache.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "selection_sampling.hpp"

namespace dpbo::privacy::detail {

namespace {

// A uniform permutation of 0..n−1 (Fisher–Yates with exact uniform integers), read as each
// candidate's place in the order.
std::vector<std::size_t> uniform_places(std::size_t n, RandomBits& bits) {
    std::vector<std::size_t> position(n);
    std::iota(position.begin(), position.end(), std::size_t{0});
    for (std::size_t k = 0; k + 1 < n; ++k) std::swap(position[k], position[k + bits.uniform_below(n - k)]);
    return position;
}

// The heads with the smallest place, scanning every candidate. Each step selects by a mask, not by
// a branch: a branch predictor's misses would count how heads and tails alternate. (Places and n
// are below 2^63, so the sign of a difference is the comparison.)
std::size_t first_heads(const std::vector<std::size_t>& position, const std::vector<unsigned char>& heads) {
    const std::size_t n = position.size();
    std::size_t chosen = n;
    std::size_t first_place = n;
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t is_heads = std::size_t{0} - static_cast<std::size_t>(heads[i]);
        const std::size_t place = (position[i] & is_heads) | (n & ~is_heads);
        const auto earlier =
            static_cast<std::size_t>(static_cast<std::int64_t>(place - first_place) >> 63);  // place < first_place
        first_place = (place & earlier) | (first_place & ~earlier);
        chosen = (i & earlier) | (chosen & ~earlier);
    }
    if (chosen == n) throw RunError("permute-and-flip: no coin came up heads, though the best candidate's always does");
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
    const std::vector<std::size_t> position = uniform_places(n, bits);
    const FixedExpBounds bounds(scale, best);
    std::vector<unsigned char> heads(n);
    std::vector<std::pair<std::size_t, uint128>> undecided;  // (candidate, u): rarely any
    uint128 lo = 0;
    uint128 hi = 0;
    for (std::size_t i = 0; i < n; ++i) {
        bounds.bound(scores[i], lo, hi);
        const uint128 high = bits.bits(64);
        const uint128 u = (high << 32) | bits.bits(32);
        const int coin = coin_from_bounds(u, lo, hi);
        heads[i] = static_cast<unsigned char>(coin > 0);
        if (coin < 0) undecided.emplace_back(i, u);  // taken with probability below 2^-57
    }
    for (const auto& [i, u] : undecided) {
        PartialUniform known = PartialUniform::of(u, FixedExpBounds::kFractionBits);
        heads[i] = static_cast<unsigned char>(
            coin_refined(scale, best, scores[i], known, kRefinementPrecision, bits, refinements));
    }
    return first_heads(position, heads);
}

std::size_t permute_and_flip_index_refined(const arma::vec& scores, ScoreScale scale, double best, unsigned precision,
                                           RandomBits& bits, Refinements* refinements) {
    const std::size_t n = scores.n_elem;
    const std::vector<std::size_t> position = uniform_places(n, bits);
    std::vector<unsigned char> heads(n);
    for (std::size_t i = 0; i < n; ++i) {
        PartialUniform u;
        heads[i] = static_cast<unsigned char>(coin_refined(scale, best, scores[i], u, precision, bits, refinements));
    }
    return first_heads(position, heads);
}

}  // namespace dpbo::privacy::detail
