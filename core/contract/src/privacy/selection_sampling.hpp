#pragma once
// The exact selections' internals, exposed for the tests that force their rare paths.
//
// Both draw a fixed amount of randomness and do the same arithmetic for every candidate, whatever
// the scores: the acceptance probabilities p_i = exp(−γ_i) enter only as rigorous 96-bit
// fixed-point bounds (FixedExpBounds), and the uniforms they are compared with are fixed-width.
// Only when a uniform falls between a lower and an upper bound — with probability at most the
// bound each function states — is the comparison refined: more uniform bits and bounds at a higher
// precision (ExpMinusBounds, MPFR: 128 bits, then doubled), until it is decided. Refinement keeps
// the result exact: each level decides only what its bounds prove, from the uniform's bits drawn
// so far, and the bits not yet drawn stay fair.
#include <cstddef>

#include <armadillo>
#include <gmpxx.h>

#include "dpbo/privacy/secure_sampling.hpp"
#include "exp_minus_bounds.hpp"
#include "fixed_exp_bounds.hpp"
#include "random_bits.hpp"

namespace dpbo::privacy::detail {

// ⌊a·b / 2^128⌋.
uint128 multiply_high(uint128 a, uint128 b);

// A uniform real in [0, 1) known to its first `known` binary digits, held as the integer they form.
struct PartialUniform {
    mpz_class digits;
    std::size_t known = 0;

    // The uniform whose first `count` (≤ 128) digits are the low `count` bits of `digits`.
    static PartialUniform of(uint128 digits, std::size_t count);
    // Draws digits until `count` are known.
    void extend_to(std::size_t count, RandomBits& bits);
};

// How many refinement levels a choice needed (for the tests that force them).
struct Refinements {
    std::size_t levels = 0;
};

// The first refinement's precision; each further level doubles it.
constexpr unsigned kRefinementPrecision = 128;

// --- The exponential mechanism, by inversion of its distribution -----------------------------------
// Index i with probability p_i / S: the i with P_i ≤ U·S < P_(i+1), P_i = Σ_(j<i) p_j, S = P_n, for
// one uniform U. Decided from bounds A_j ≤ P_j·2^96 ≤ B_j and U's first 128 bits unless U·S lies
// within the bounds' slack of some P_j. Boundary j is undecided only if U lies in an interval of
// length at most (2W + 4)/A_n, W = B_n − A_n ≤ Σ_i (p_i·(γ_i + 1)·2^38 + 4); with S ≥ 1 (the best
// has p = 1) and Σ_i p_i·γ_i ≤ S·(ln n + 1) (the exponential mechanism's mean γ), summing over the
// n − 1 boundaries gives at most n·(ln n + 2)·2^-56 + n²·2^-92.
constexpr unsigned exponential_fraction_bits(unsigned precision) { return precision / 4 * 3; }  // 96 at 128

// The whole choice: 128 bits of U drawn, then exponential_index_from.
std::size_t exponential_index(const arma::vec& scores, ScoreScale scale, double best, RandomBits& bits,
                              Refinements* refinements = nullptr);
// The choice for U's first 128 bits `u`.
std::size_t exponential_index_from(const arma::vec& scores, ScoreScale scale, double best, uint128 u, RandomBits& bits,
                                   Refinements* refinements = nullptr);
// The refinement from `precision` on, with U as far as it is known.
std::size_t exponential_index_refined(const arma::vec& scores, ScoreScale scale, double best, PartialUniform& u,
                                      unsigned precision, RandomBits& bits, Refinements* refinements = nullptr);

// --- Permute-and-flip, with every coin flipped -----------------------------------------------------
// A uniform permutation of the n candidates, then one coin per candidate, heads with probability
// p_i: heads when a 96-bit uniform u has u < lo, tails when u ≥ hi, refined otherwise — with
// probability (hi − lo)/2^96 ≤ p·(γ + 1)·2^-58 + 2^-94 < 2^-57. The choice is the first heads in the
// permutation's order; the best candidate (p = 1) always flips heads.
constexpr unsigned coin_fraction_bits(unsigned precision) { return precision - 1; }  // 127 at 128

std::size_t permute_and_flip_index(const arma::vec& scores, ScoreScale scale, double best, RandomBits& bits,
                                   Refinements* refinements = nullptr);
// Every coin refined from `precision` on, with nothing known of its uniform (for the tests).
std::size_t permute_and_flip_index_refined(const arma::vec& scores, ScoreScale scale, double best, unsigned precision,
                                           RandomBits& bits, Refinements* refinements = nullptr);
// One coin, 96 digits of whose uniform decided nothing: u.known digits drawn, refined from `precision` on.
bool coin_refined(ScoreScale scale, double best, double score, PartialUniform& u, unsigned precision, RandomBits& bits,
                  Refinements* refinements = nullptr);
// The first coin: heads (1), tails (0) or undecided (-1) for the 96-bit uniform u and bounds lo, hi.
int coin_from_bounds(uint128 u, uint128 lo, uint128 hi);

}  // namespace dpbo::privacy::detail
