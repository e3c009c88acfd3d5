// The exact selections' public entry points: validation, then the samplers of
// selection_sampling.hpp on one RandomBits.
#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "selection_sampling.hpp"

namespace dpbo::privacy {

namespace {

// The largest score, after refusing an empty vector, a non-finite score (by index only: scores are
// sensitive) or a scale that is no finite factor ≥ 0 over a finite divisor > 0.
double checked_best(const arma::vec& scores, ScoreScale scale, const char* caller) {
    if (!std::isfinite(scale.factor) || scale.factor < 0.0)
        throw ValidationError(fmt::format(
            "{}: factor = {:.17g} is not allowed; the factor must be a finite number >= 0", caller, scale.factor));
    if (!std::isfinite(scale.divisor) || !(scale.divisor > 0.0))
        throw ValidationError(fmt::format(
            "{}: divisor = {:.17g} is not allowed; the divisor must be a finite number > 0", caller, scale.divisor));
    if (scores.is_empty()) throw RunError(fmt::format("{}: no scores to choose from; need at least one", caller));
    for (arma::uword i = 0; i < scores.n_elem; ++i)
        if (!std::isfinite(scores[i]))
            throw RunError(
                fmt::format("{}: score {} of {} is not finite (its value is not shown: scores are "
                            "sensitive); every score must be a finite number",
                            caller, i, scores.n_elem));
    return scores.max();
}

}  // namespace

std::size_t exponential_mechanism_index(const arma::vec& scores, ScoreScale scale, PrivacyNoiseSource& noise) {
    const double best = checked_best(scores, scale, "exponential_mechanism_index");
    detail::RandomBits bits(noise);
    return detail::exponential_index(scores, scale, best, bits);
}

std::size_t permute_and_flip_index(const arma::vec& scores, ScoreScale scale, PrivacyNoiseSource& noise) {
    const double best = checked_best(scores, scale, "permute_and_flip_index");
    detail::RandomBits bits(noise);
    return detail::permute_and_flip_index(scores, scale, best, bits);
}

}  // namespace dpbo::privacy
