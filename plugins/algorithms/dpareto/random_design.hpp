#pragma once
// DPareto's k₀ seed points (Algorithm 2, line 1: "sample random point λ ∈ Λ"), drawn as the random
// baseline draws them: uniformly in the unit cube mapped into the space (SearchSpace::sample: log
// dimensions log-uniform, integer dimensions integers), or from per-dimension distributions such as
// the paper's Tables 3–4 (`distributions`, the same syntax as random-search's).
#include <optional>

#include "dpbo/bo/loop.hpp"
#include "sampling_distributions.hpp"

namespace dpbo::dpareto {

class RandomDesign final : public InitialDesign {
public:
    explicit RandomDesign(std::optional<sampling::Distributions> distributions = std::nullopt)
        : distributions_(std::move(distributions)) {}
    Proposal design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const override;

private:
    std::optional<sampling::Distributions> distributions_;
};

}  // namespace dpbo::dpareto
