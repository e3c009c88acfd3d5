#pragma once
// The secure sampling layer: the only way privacy noise is drawn. Every release here is exact —
// its distribution, as sampled on a real machine, is the one the privacy proof assumes:
//   - Gaussian and Laplace releases sample the continuous noise exactly, as a lazily refined random
//     real (Karney 2016; von Neumann 1951), and round x + noise exactly onto a power-of-two grid
//     chosen from the noise scale alone. The release is a function of the grid index only, so it
//     is post-processing of the continuous mechanism and keeps its guarantee with no slack, and
//     the set of values a release can take does not depend on x (Mironov 2012).
//   - Bernoulli(exp(−γ)), discrete Laplace and uniform integers use integer arithmetic only
//     (Canonne, Kamath & Steinke 2020).
//   - The exact selections (exponential mechanism, permute-and-flip) compare fixed-width uniforms
//     with rigorous bounds on exp(−γ), so their work does not depend on the scores except with a
//     stated, tiny probability.
// All bits come from the ChaCha20 keystream of a PrivacyNoiseSource. No GMP type appears here:
// plugins include this header without GMP's.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <armadillo>

namespace dpbo {

class PrivacyNoiseSource;

namespace privacy {

// A non-negative rational given exactly as the quotient of two finite doubles (every double is a
// dyadic rational, so ε/Δ or n/d with integers up to 2^53 is represented without rounding).
struct Ratio {
    double numerator = 0.0;
    double denominator = 1.0;
};

// The grid g = 2^(⌈log2 scale⌉ − 40) that releases at noise scale `scale` are rounded to. It depends
// on the scale alone, never on the value released. Throws ValidationError naming `what` and the
// value when the scale is not finite and > 0, when g would not be a normal double (scale below
// about 2^-982), or when the noise itself could overflow (scale above 2^999).
double release_grid(double scale, std::string_view what = "noise scale");

// g · round((value + sigma · Z) / g), Z ~ N(0, 1) sampled exactly, g = release_grid(sigma). The
// result is the double nearest to g·k (±inf only when g·k is beyond the double range). Throws
// RunError when a value is not finite (without printing it: it is the un-noised answer).
double gaussian_release(double value, double sigma, PrivacyNoiseSource& noise);
arma::vec gaussian_release(const arma::vec& value, double sigma, PrivacyNoiseSource& noise);

// The same with Laplace noise b · L, L = ±E, E ~ Exp(1) sampled exactly, g = release_grid(scale).
double laplace_release(double value, double scale, PrivacyNoiseSource& noise);
arma::vec laplace_release(const arma::vec& value, double scale, PrivacyNoiseSource& noise);

// For tests of the far tails, which plain sampling never reaches: the release with Z drawn from
// N(0, 1) conditioned on ⌊|Z|⌋ ≥ min_integer_part (for Laplace, E from Exp(1) conditioned on
// ⌊E⌋ ≥ min_integer_part), by the very code that serves gaussian_release and laplace_release, which
// are these with min_integer_part = 0.
double gaussian_release_tail(double value, double sigma, std::uint32_t min_integer_part, PrivacyNoiseSource& noise);
double laplace_release_tail(double value, double scale, std::uint32_t min_integer_part, PrivacyNoiseSource& noise);

// True with probability exp(−gamma), gamma ≥ 0 (Canonne, Kamath & Steinke 2020, Alg. 1).
bool bernoulli_exp_minus(Ratio gamma, PrivacyNoiseSource& noise);

// γ = factor · (larger − smaller) / divisor, kept as its four finite doubles: the difference of two
// doubles, and its product with a third, is in general no double, so a Ratio of two doubles cannot
// carry it without rounding. The sampler turns each double into the exact rational it is and does
// the arithmetic in exact rationals (GMP, inside the library), so γ is exact for any doubles,
// however far apart their exponents (1e300 − (−1e300), or a gap of 1e-300). A selection's score gap
// ε·(q* − q_i)/(2Δq) is of this form.
struct ScaledDifference {
    double factor = 0.0;  // ≥ 0
    double larger = 0.0;  // ≥ smaller
    double smaller = 0.0;
    double divisor = 1.0;  // > 0
};

// True with probability exp(−γ), γ the ScaledDifference's exact value. Throws ValidationError naming
// the factor or divisor when either is out of range, and RunError when larger or smaller is not
// finite or larger < smaller — without their values, which are typically sensitive scores. However
// large γ is, the draw ends after a few Bernoulli(exp(−1)) trials on average.
bool bernoulli_exp_minus_difference(const ScaledDifference& gamma, PrivacyNoiseSource& noise);

// How a selection weighs its scores: γ_i = factor · (q* − q_i) / divisor, q* the largest score
// (factor = ε, divisor = 2Δq, or Δq for monotone scores).
struct ScoreScale {
    double factor = 0.0;   // finite, ≥ 0
    double divisor = 1.0;  // finite, > 0
};

// Exact selections whose work does not depend on the scores, except with a stated, tiny
// probability. Each acceptance probability p_i = exp(−γ_i) enters only through rigorous 96-bit
// fixed-point bounds, computed for every candidate by the same branch-free arithmetic (a few
// long-double operations and a 64-bit fixed-point series), and is compared with uniforms of a fixed
// width. Only when a uniform falls within a bound's slack is the comparison refined (more uniform
// bits, MPFR bounds at 128 bits and then doubled precision), which keeps the law exact. Both throw
// ValidationError naming the factor or divisor when either is out of range, and RunError for no
// scores or a non-finite score (named by its index, its value not shown).
//
// The exponential mechanism: index i with probability exp(−γ_i) / Σ_j exp(−γ_j), by inversion —
// 128 uniform bits against bounds on every prefix sum, all n visited. Random bits drawn: 128; work:
// n bounds and one pass over the n prefix sums. Refined with probability at most
// n·(ln n + 2)·2^-56 + n²·2^-92 per choice (about 2^-50 at n = 10, 2^-32 at n = 10^6).
std::size_t exponential_mechanism_index(const arma::vec& scores, ScoreScale scale, PrivacyNoiseSource& noise);

// Permute-and-flip (McKenna & Sheldon 2020): the first candidate, in a uniformly random order,
// whose coin — heads with probability exp(−γ_i) — comes up heads; every coin is flipped and the
// whole order scanned. Random bits drawn: the permutation's (their number depends on n alone) and
// 96 per candidate; work: n bounds. A coin is refined with probability below 2^-57, so any is with
// probability below n·2^-57 per choice.
std::size_t permute_and_flip_index(const arma::vec& scores, ScoreScale scale, PrivacyNoiseSource& noise);

// integer_value + Z, where P(Z = z) ∝ exp(−decay · |z|), decay > 0 (discrete Laplace; Canonne,
// Kamath & Steinke 2020, Alg. 2), returned as the double nearest to that exact integer (so it is a
// function of the noisy integer alone, also beyond 2^53). integer_value must be an integer.
double discrete_laplace_release(double integer_value, Ratio decay, PrivacyNoiseSource& noise);

// Uniform on {0, 1, ..., bound − 1} by rejection of random bit strings; bound ≥ 1.
std::uint64_t uniform_below(std::uint64_t bound, PrivacyNoiseSource& noise);

}  // namespace privacy
}  // namespace dpbo
