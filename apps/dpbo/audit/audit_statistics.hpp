#pragma once
// The audit's statistics on the two worlds' samples (one row per release, one column per released
// coordinate): the first half of each world selects distinguishing events (distinguishers.hpp), the
// second half — independent of that choice — evaluates them. Every kept event's two Clopper–Pearson
// bounds use level (1 − confidence)/(2·events): by Bonferroni's inequality all of them hold together
// with probability ≥ confidence, so the largest bound reported is a lower bound on the true ε (and
// μ) at that confidence.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "distinguishers.hpp"

namespace dpbo::audit {

struct StatisticsSettings {
    double delta = 0.0;  // the claim's δ (0 for pure ε-DP)
    double confidence = 0.95;
    bool gdp = false;  // also rank and report μ lower bounds
    std::size_t keep_per_direction = 4;
    // Coordinates that vary on the selection halves are audited in order, at most this many: each
    // costs selection time, and a run's later coordinates mostly repeat its earlier ones.
    std::size_t max_coordinates = 32;
};

struct Finding {
    Distinguisher distinguisher;
    EventCounts counts;       // on the evaluation half, in the direction of the distinguisher
    PrivacyLowerBound bound;  // Bonferroni-corrected
};

struct AuditStatistics {
    std::vector<Finding> findings;        // every evaluated event
    std::size_t best_epsilon = 0;         // index of the finding with the largest ε bound
    std::size_t best_mu = 0;              // ... the largest μ bound
    double alpha_per_bound = 0.0;         // the level of each one-sided bound after the correction
    std::size_t evaluation_samples = 0;   // per world
    PrivacyLowerBound detectable;         // the most any event could have shown at this size
    std::size_t coordinates = 0;          // released coordinates
    std::size_t varying_coordinates = 0;  // of those, not constant across both selection halves
    std::size_t audited_coordinates = 0;  // of those, audited (at most max_coordinates)

    const Finding& epsilon_finding() const { return findings.at(best_epsilon); }
    const Finding& mu_finding() const { return findings.at(best_mu); }
};

// The number of evaluation samples per world an audit of `runs` releases per world uses.
std::size_t evaluation_half(std::size_t runs);
// The level of each bound when `events` events are evaluated at `confidence`.
double bound_level(double confidence, std::size_t events);
// The most kept events an audit evaluates with these settings (the Bonferroni denominator's bound).
std::size_t most_events(const StatisticsSettings& settings);

AuditStatistics audit_statistics(const arma::mat& first, const arma::mat& second,
                                 const std::vector<std::string>& coordinate_names, const StatisticsSettings& settings);

}  // namespace dpbo::audit
