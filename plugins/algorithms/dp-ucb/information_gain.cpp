#include "information_gain.hpp"

#include <cmath>

#include "finite_set_posterior.hpp"

namespace dpbo::dp_ucb {

InformationGain greedy_information_gain(const arma::mat& candidates, const dpbo::gp::Kernel& kernel,
                                        double noise_variance, std::size_t observations) {
    FiniteSetPosterior posterior(candidates, kernel, noise_variance, observations);
    double gain = 0.0;
    for (std::size_t t = 0; t < observations; ++t) {
        const double variance = posterior.observe_variance_only(posterior.variance().index_max());
        gain += 0.5 * std::log1p(variance / noise_variance);
    }
    // Nemhauser, Wolsey & Fisher (1978): greedy ≥ (1 − 1/e)·max for monotone submodular functions.
    return {gain, gain / (1.0 - std::exp(-1.0))};
}

}  // namespace dpbo::dp_ucb
