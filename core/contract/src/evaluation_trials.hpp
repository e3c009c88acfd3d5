#pragma once
// The evaluator's charging of trials that are private learners (PrivateTrials), apart from the
// evaluator itself; not installed.
#include <cstddef>
#include <optional>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

class Objective;
class PrivacyLedger;

struct TrialCharging {
    PrivacyLedger& ledger;
    const std::optional<std::vector<PrivacyEvent>>& cover;  // Evaluator::trial_cover()
    std::size_t batch = 0;                                  // 0-based
    std::size_t trials_before = 0;                          // points evaluated before this batch
};

// Covered (a private selection's trial bound is set): every point's events must be covered by it
// (events_dominated_by), else RunError naming the trial, its events and the bound; nothing is
// charged. Otherwise every point's events are charged to the ledger (BudgetExceeded as charge()),
// under the objective's trial scope, which must be the ledger's when it has one (RunError naming both).
void charge_trials(const TrialCharging& charging, const Objective& objective, const arma::mat& points,
                   const Evaluations& result);

}  // namespace dpbo
