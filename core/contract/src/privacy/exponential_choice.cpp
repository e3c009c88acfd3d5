// The exponential mechanism by inversion with rigorous bounds (see selection_sampling.hpp): one
// pass computes every p_i's bounds, one draw of 128 bits gives U, and one pass over all n prefix
// sums counts the boundaries U·S certainly passes and those it may pass. Both counts visit every
// candidate without branching on the scores, so the work is the same for any scores of length n;
// the counts agree unless U·S lies within the bounds' slack of a boundary.
#include <optional>
#include <vector>

#include "selection_sampling.hpp"

namespace dpbo::privacy::detail {

namespace {

// The prefix sums of n bounds at most 2^96 each stay below 2^126 (and T_hi = ⌊u·B_n/2^128⌋ + 2 too);
// more candidates go straight to the refinement's unbounded integers.
constexpr std::size_t kMostCandidatesInFixedWidth = std::size_t{1} << 30;

// The index T = U·S falls at, when its bounds decide it: boundary j (1 ≤ j < n) is certainly passed
// when B_j ≤ t_lo and possibly when A_j < t_hi (A_j, B_j the prefix sums of the lower and upper
// bounds). Every boundary is visited and counted without a branch, in fixed-width integers on the
// first pass and unbounded ones in the refinement; no value while U·S lies within a bound's slack.
template <typename Integer>
std::optional<std::size_t> decided_index(const std::vector<Integer>& lower, const std::vector<Integer>& upper,
                                         const Integer& t_lo, const Integer& t_hi) {
    std::size_t passed = 0;
    std::size_t possibly_passed = 0;
    Integer a = 0;
    Integer b = 0;
    for (std::size_t j = 1; j < lower.size(); ++j) {
        a += lower[j - 1];
        b += upper[j - 1];
        passed += static_cast<std::size_t>(b <= t_lo);
        possibly_passed += static_cast<std::size_t>(a < t_hi);
    }
    if (passed == possibly_passed) return passed;
    return std::nullopt;
}

}  // namespace

uint128 multiply_high(uint128 a, uint128 b) {
    const uint128 mask = ~std::uint64_t{0};
    const uint128 a1 = a >> 64, a0 = a & mask, b1 = b >> 64, b0 = b & mask;
    const uint128 low = a0 * b0, cross1 = a1 * b0, cross0 = a0 * b1;
    const uint128 middle = (low >> 64) + (cross1 & mask) + (cross0 & mask);  // < 3·2^64
    return a1 * b1 + (cross1 >> 64) + (cross0 >> 64) + (middle >> 64);
}

std::size_t exponential_index(const arma::vec& scores, ScoreScale scale, double best, RandomBits& bits,
                              Refinements* refinements) {
    const uint128 high = bits.bits(64);
    const uint128 u = (high << 64) | bits.bits(64);
    return exponential_index_from(scores, scale, best, u, bits, refinements);
}

std::size_t exponential_index_from(const arma::vec& scores, ScoreScale scale, double best, uint128 u, RandomBits& bits,
                                   Refinements* refinements) {
    const std::size_t n = scores.n_elem;
    if (n >= kMostCandidatesInFixedWidth) {
        PartialUniform known_u = PartialUniform::of(u, 128);
        return exponential_index_refined(scores, scale, best, known_u, kRefinementPrecision, bits, refinements);
    }
    const FixedExpBounds bounds(scale, best);
    std::vector<uint128> lower(n);
    std::vector<uint128> upper(n);
    uint128 total_lower = 0;
    uint128 total_upper = 0;
    for (std::size_t i = 0; i < n; ++i) {
        bounds.bound(scores[i], lower[i], upper[i]);
        total_lower += lower[i];
        total_upper += upper[i];
    }
    // T = U·S lies in [t_lo, t_hi): U ≥ u/2^128 and S ≥ A_n below, U < (u + 1)/2^128 and S ≤ B_n above.
    const uint128 t_lo = multiply_high(u, total_lower);
    const uint128 t_hi = multiply_high(u, total_upper) + 2;
    if (const auto index = decided_index(lower, upper, t_lo, t_hi)) return *index;
    PartialUniform known_u = PartialUniform::of(u, 128);
    return exponential_index_refined(scores, scale, best, known_u, kRefinementPrecision, bits, refinements);
}

std::size_t exponential_index_refined(const arma::vec& scores, ScoreScale scale, double best, PartialUniform& u,
                                      unsigned precision, RandomBits& bits, Refinements* refinements) {
    const std::size_t n = scores.n_elem;
    std::vector<mpz_class> lower(n);
    std::vector<mpz_class> upper(n);
    for (;; precision *= 2) {
        if (refinements) ++refinements->levels;
        ExpMinusBounds bounds(scale, best, precision, exponential_fraction_bits(precision));
        mpz_class total_lower = 0;
        mpz_class total_upper = 0;
        for (std::size_t i = 0; i < n; ++i) {
            bounds.bound(scores[i], lower[i], upper[i]);
            total_lower += lower[i];
            total_upper += upper[i];
        }
        u.extend_to(precision, bits);
        const mpz_class t_lo = (u.digits * total_lower) >> u.known;
        const mpz_class t_hi = ((u.digits * total_upper) >> u.known) + 2;
        if (const auto index = decided_index(lower, upper, t_lo, t_hi)) return *index;
    }
}

}  // namespace dpbo::privacy::detail
