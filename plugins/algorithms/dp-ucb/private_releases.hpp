#pragma once
// The two kinds of release dp-ucb makes, each charged to the run's ledger before noise is drawn.
// Kusner et al.'s sensitivity bounds for Algorithms 1 and 2 (Theorems 1, 3, 5) hold with
// probability 1 − δ under Assumption 1; the selection or mechanism is pure ε-DP for the bound. The
// failure probability is charged beside it as a (0, δ) event, so the ledger composes each release
// to (ε, δ)-DP (Corollaries 1–3) and both to (2ε, 2δ)-DP by basic composition.
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/mechanism.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/selection.hpp"

namespace dpbo::dp_ucb {

// Refuses (ValidationError) a release module for `role` whose guarantee is not pure ε-DP at the
// algorithm's ε: the paper's releases are each ε-DP at one ε.
void require_epsilon(const dpbo::PrivateRelease& release, const std::string& role, double epsilon);

// Charges the (0, δ) failure of the sensitivity bound (when δ > 0), then selects.
std::size_t select_privately(const dpbo::Selection& selection, const arma::vec& scores, double delta,
                             dpbo::PrivacyLedger& ledger, const std::string& what);
// Charges the (0, δ) failure of the sensitivity bound (when δ > 0), then releases value + noise.
double release_privately(const dpbo::Mechanism& mechanism, double value, double delta, dpbo::PrivacyLedger& ledger,
                         const std::string& what);

}  // namespace dpbo::dp_ucb
