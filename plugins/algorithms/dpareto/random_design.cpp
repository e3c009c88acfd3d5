#include "random_design.hpp"

#include <limits>

#include "dpbo/space.hpp"

namespace dpbo::dpareto {

Proposal RandomDesign::design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const {
    Proposal proposal;
    proposal.points = distributions_ ? distributions_->sample(count, rng) : space.sample(count, rng);
    proposal.scores.set_size(count);
    proposal.scores.fill(std::numeric_limits<double>::quiet_NaN());
    return proposal;
}

}  // namespace dpbo::dpareto
