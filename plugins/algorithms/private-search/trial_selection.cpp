#include "trial_selection.hpp"

namespace dpbo::private_search {

std::optional<std::size_t> best_trial(const arma::vec& scores, Sense sense) {
    if (scores.is_empty()) return std::nullopt;
    std::size_t best = 0;
    for (std::size_t i = 1; i < scores.n_elem; ++i) {
        const bool better = sense == Sense::Maximise ? scores(i) > scores(best) : scores(i) < scores(best);
        if (better) best = i;
    }
    return best;
}

std::optional<std::size_t> first_passing_trial(const arma::vec& scores, Sense sense, double threshold) {
    for (std::size_t i = 0; i < scores.n_elem; ++i) {
        const bool passes = sense == Sense::Maximise ? scores(i) >= threshold : scores(i) <= threshold;
        if (passes) return i;
    }
    return std::nullopt;
}

}  // namespace dpbo::private_search
