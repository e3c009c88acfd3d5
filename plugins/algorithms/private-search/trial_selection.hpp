#pragma once
// Which trial a private selection releases, from the trials' privatised scores alone (post-processing
// of the trials' releases; the selection's cost is the RepeatAndSelectEvent charged before them).
#include <cstddef>
#include <optional>

#include <armadillo>

#include "dpbo/objective.hpp"

namespace dpbo::private_search {

// The best score's index under `sense`, the first among equals (Papernot & Steinke: release the best
// of the K trials); none for no trials.
std::optional<std::size_t> best_trial(const arma::vec& scores, Sense sense);

// The first index whose score passes `threshold` (≥ for a maximised score, ≤ for a minimised one):
// Liu & Talwar's thresholded stopping releases it and runs no later trial; none when no score passes.
std::optional<std::size_t> first_passing_trial(const arma::vec& scores, Sense sense, double threshold);

}  // namespace dpbo::private_search
