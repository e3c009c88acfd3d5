#pragma once
// DPareto's k₀ seed points (Algorithm 2, line 1: "sample random point λ ∈ Λ"): independent uniform
// draws in the unit cube mapped into the space (SearchSpace::sample), so log-scaled dimensions are
// log-uniform and integer dimensions integers. A design policy of its own so that the random
// baseline's prior distributions (the paper's Tables 3–4) can replace it.
#include "dpbo/bo/loop.hpp"

namespace dpbo::dpareto {

class UniformRandomDesign final : public InitialDesign {
public:
    Proposal design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const override;
};

}  // namespace dpbo::dpareto
