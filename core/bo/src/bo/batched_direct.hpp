#pragma once
// DIRECT-L (Gablonsky & Kelley, "A locally-biased form of the DIRECT algorithm", J. Global Optim.
// 21, 2001) with randomised choice among equally long sides — the variant NLopt calls
// GN_DIRECT_L_RAND — written so that the centres sampled in one iteration are scored together.
//
// Why our own: NLopt hands its objective one point at a time, and for a GP acquisition one point
// is an O(n²) posterior with allocation and rescaling overheads that dominate at n ≤ 200 (≈ 4.5 µs
// a point on Rosenbrock-10, against ≈ 1 µs a point in a batch). DIRECT chooses all potentially
// optimal rectangles of an iteration before it divides any of them, so every new centre of the
// iteration is known in advance and one batched prediction scores them all.
//
// Two differences from NLopt's cdirect, both inside the algorithm's definition: the potentially
// optimal set is chosen against the best value at the start of the iteration (Jones, Perttunen &
// Stuckman 1993 define it so; cdirect lets divisions earlier in the same iteration lower it), and
// the random side choices come from our own generator, not NLopt's.
#include <cstddef>
#include <cstdint>
#include <functional>

#include <armadillo>

namespace dpbo::detail {

// Scores of a batch of points of [0, 1]^dim (one per row), one score per row; higher is better.
using BatchScorer = std::function<arma::vec(const arma::mat&)>;

struct DirectResult {
    arma::rowvec point;  // in [0, 1]^dim
    double score = 0.0;
    std::size_t evaluations = 0;
};

// Maximises `score` over [0, 1]^dim with exactly `max_evaluations` evaluations (it has no other
// stopping rule, as NLopt's DIRECT with only maxeval set). Each call of `score` gets the new
// centres of one iteration, at most max_evaluations in all. Deterministic for a given `seed`.
// dim ≥ 1 and max_evaluations ≥ 1.
DirectResult batched_direct_l(std::size_t dim, std::size_t max_evaluations, std::uint64_t seed,
                              const BatchScorer& score);

}  // namespace dpbo::detail
