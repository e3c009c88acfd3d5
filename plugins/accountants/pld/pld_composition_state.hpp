#pragma once
// What the pld accountant has composed: each distinct mechanism with the number of times it ran,
// and, computed when first asked and kept until the next charge, the composed distributions for the
// pessimistic (upper) and optimistic (lower) estimates. Grouping equal mechanisms makes a run's T
// charges of one step one self-composition by repeated squaring, not T convolutions.
#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "grid_pld.hpp"
#include "mechanism_plds.hpp"

namespace dpbo::pld {

struct Mechanism {
    // SubsampledGaussian: Poisson sampling (add/remove-one), or no sampling at all (q = 1);
    // WithoutReplacementGaussian: fixed-size lots drawn without replacement (replace-one), q < 1.
    enum class Kind { SubsampledGaussian, WithoutReplacementGaussian, Laplace, ApproximateDp };
    Kind kind;
    double first;   // σ/Δ (Gaussian), b/Δ (Laplace), ε (approximate DP)
    double second;  // sampling rate q (Gaussian), unused (Laplace), δ (approximate DP)
    bool operator==(const Mechanism&) const = default;
};

struct GridSettings {
    double interval = 1e-4;
    double tail_mass_truncation = 1e-15;
    double log_mass_truncation = -50;
};

class PldCompositionState {
public:
    explicit PldCompositionState(GridSettings settings) : settings_(settings) {}

    void add(const Mechanism& mechanism, std::size_t times);
    bool empty() const { return groups_.empty(); }
    std::size_t releases() const;
    std::size_t mechanisms() const { return groups_.size(); }
    const GridSettings& settings() const { return settings_; }

    // The larger over the two directions (remove, add) of the composed distributions' δ(ε) or ε(δ),
    // for the pessimistic or the optimistic estimate.
    double delta_for_epsilon(double epsilon, Estimate estimate) const;
    double epsilon_for_delta(double delta, Estimate estimate) const;

private:
    struct Composed {
        GridPld remove;
        std::optional<GridPld> add;  // empty while every mechanism composed is symmetric
    };
    const Composed& composed(Estimate estimate) const;
    PldPair mechanism_plds(const Mechanism& mechanism, Estimate estimate) const;

    GridSettings settings_;
    std::vector<std::pair<Mechanism, std::size_t>> groups_;
    mutable std::array<std::optional<Composed>, 2> cache_;
};

}  // namespace dpbo::pld
