#pragma once
// Learns distinguishing events on the selection half of an audit's samples. For every released
// coordinate and every feature (release_features.hpp):
//   - ordinal features (the value, trailing zeros, exponent, finest grid): the events "feature > t"
//     and "feature ≤ t" for thresholds t at quantiles of the pooled selection half (every distinct
//     value when there are few);
//   - categorical features (low bits, and the ordinal representation features too): likelihood-
//     ratio sets, the codes whose estimated probability in one world exceeds r times that in the
//     other, for several r — the Neyman–Pearson form of the best test on that feature.
// Events are shaped on the first part of the selection half and scored, in both directions, by the
// lower bound they give on its second part; the best few per direction are kept, to be evaluated on
// fresh samples (audit_statistics.hpp).
#include <cstddef>
#include <string>
#include <vector>

#include <armadillo>

#include "privacy_bound.hpp"
#include "release_features.hpp"

namespace dpbo::audit {

struct Event {
    enum class Rule { Above, AtMost, InSet };
    std::size_t coordinate = 0;
    Feature feature;
    Rule rule = Rule::Above;
    double threshold = 0.0;     // Above, AtMost
    std::vector<double> codes;  // InSet, sorted
    std::string description;    // "theta[0] low 8 bits of the mantissa ∈ a likelihood-ratio set of 12 codes"

    bool contains(double x) const;
};

struct Distinguisher {
    Event event;
    bool first_over_second = true;  // true: P_first(E) is bounded below and P_second(E) above
    PrivacyLowerBound selection;    // the bound on the selection half (before any correction)
};

struct SelectionSettings {
    double delta = 0.0;
    double alpha = 0.05;
    std::size_t keep_per_direction = 4;
    bool rank_by_mu = false;  // also keep the best few by μ (GDP claims)
};

// `first` and `second` are the selection halves (samples × coordinates) of the two worlds.
std::vector<Distinguisher> learn_distinguishers(const arma::mat& first, const arma::mat& second,
                                                const std::vector<std::string>& coordinate_names,
                                                const SelectionSettings& settings);

}  // namespace dpbo::audit
