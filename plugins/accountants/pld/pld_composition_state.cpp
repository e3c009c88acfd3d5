#include "pld_composition_state.hpp"

#include <algorithm>
#include <cmath>

#include "pld_composition.hpp"

namespace dpbo::pld {
namespace {

// The optimistic estimate's δ(ε) less the mass it may overstate (GridPld::excess_mass).
double delta_of(const GridPld& pld, double epsilon) {
    return std::max(0.0, pld::delta_for_epsilon(pld, epsilon) - pld.excess_mass);
}
double epsilon_of(const GridPld& pld, double delta) { return pld::epsilon_for_delta(pld, delta + pld.excess_mass); }

}  // namespace

void PldCompositionState::add(const Mechanism& mechanism, std::size_t times) {
    const auto same =
        std::find_if(groups_.begin(), groups_.end(), [&](const auto& group) { return group.first == mechanism; });
    if (same != groups_.end()) {
        same->second += times;
    } else {
        groups_.emplace_back(mechanism, times);
    }
    cache_ = {};
}

std::size_t PldCompositionState::releases() const {
    std::size_t total = 0;
    for (const auto& group : groups_) total += group.second;
    return total;
}

PldPair PldCompositionState::mechanism_plds(const Mechanism& mechanism, Estimate estimate) const {
    const Discretisation grid{settings_.interval, settings_.log_mass_truncation, estimate};
    switch (mechanism.kind) {
        case Mechanism::Kind::SubsampledGaussian:
            return subsampled_gaussian_pld(mechanism.first, mechanism.second, grid);
        case Mechanism::Kind::WithoutReplacementGaussian:
            return without_replacement_gaussian_pld(mechanism.first, mechanism.second, grid);
        case Mechanism::Kind::Laplace:
            return laplace_pld(mechanism.first, grid);
        case Mechanism::Kind::ApproximateDp:
            break;
    }
    return approximate_dp_pld(mechanism.first, mechanism.second, grid);
}

const PldCompositionState::Composed& PldCompositionState::composed(Estimate estimate) const {
    std::optional<Composed>& cached = cache_[estimate == Estimate::Pessimistic ? 0 : 1];
    if (cached) return *cached;
    const double tail = settings_.tail_mass_truncation;
    // Gaussian releases without subsampling compose exactly to one Gaussian: μ² adds (μ = Δ/σ; Dong,
    // Roth & Su 2022, Cor. 3.3). Discretising that one is tighter and faster than composing them.
    std::vector<std::pair<Mechanism, std::size_t>> groups;
    double gaussian_mu_squared = 0.0;
    for (const auto& [mechanism, times] : groups_) {
        if (mechanism.kind == Mechanism::Kind::SubsampledGaussian && mechanism.second == 1.0) {
            gaussian_mu_squared += static_cast<double>(times) / (mechanism.first * mechanism.first);
        } else {
            groups.emplace_back(mechanism, times);
        }
    }
    if (gaussian_mu_squared > 0.0) {
        const double noise = 1.0 / std::sqrt(gaussian_mu_squared * (1.0 + 1e-14));  // μ rounded up
        groups.emplace_back(Mechanism{Mechanism::Kind::SubsampledGaussian, noise, 1.0}, 1);
    }
    Composed total{identity_pld(settings_.interval), std::nullopt};
    for (const auto& [mechanism, times] : groups) {
        PldPair one = mechanism_plds(mechanism, estimate);
        // Truncating the single release first keeps the composition on the grid where its mass is.
        truncate_tails(one.remove, tail, estimate);
        const GridPld remove = self_compose(one.remove, times, estimate, tail);
        std::optional<GridPld> add;
        if (one.add) {
            truncate_tails(*one.add, tail, estimate);
            add = self_compose(*one.add, times, estimate, tail);
        }
        // A symmetric mechanism's distribution serves both directions; the composition becomes
        // asymmetric with its first asymmetric mechanism, whose add direction starts from the
        // symmetric ones composed so far.
        if (add && !total.add) total.add = total.remove;
        if (total.add) total.add = compose(*total.add, add ? *add : remove, estimate, tail);
        total.remove = compose(total.remove, remove, estimate, tail);
    }
    cached = std::move(total);
    return *cached;
}

double PldCompositionState::delta_for_epsilon(double epsilon, Estimate estimate) const {
    const Composed& total = composed(estimate);
    double delta = delta_of(total.remove, epsilon);
    if (total.add) delta = std::max(delta, delta_of(*total.add, epsilon));
    return delta;
}

double PldCompositionState::epsilon_for_delta(double delta, Estimate estimate) const {
    const Composed& total = composed(estimate);
    double epsilon = epsilon_of(total.remove, delta);
    if (total.add) epsilon = std::max(epsilon, epsilon_of(*total.add, delta));
    return epsilon;
}

}  // namespace dpbo::pld
