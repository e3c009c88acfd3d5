// How the evaluator charges trials that are private learners (PrivateTrials): each point's declared
// events composed into the run's ledger under the trials' scope, or, once an algorithm charged a
// private selection among the trials (Evaluator::cover_trials), checked against that selection's
// trial bound and not charged again.
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "evaluation_trials.hpp"

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

namespace {

std::string events_text(const std::vector<PrivacyEvent>& events) {
    std::vector<std::string> texts;
    for (const PrivacyEvent& event : events) texts.push_back(event_text(event));
    return fmt::format("[{}]", fmt::join(texts, "; "));
}

}  // namespace

void charge_trials(const TrialCharging& charging, const Objective& objective, const arma::mat& points,
                   const Evaluations& result) {
    const std::size_t batch = charging.batch;
    const std::string who = objective.describe_origin();
    if (charging.cover) {
        for (std::size_t i = 0; i < result.trial_events.size(); ++i) {
            if (!events_dominated_by(result.trial_events[i], *charging.cover))
                throw RunError(fmt::format(
                    "{}: trial {} (batch {}, point {} ({})) declared {}, which the private selection's trial bound "
                    "{} does not cover; a selection charged for that bound cannot account this trial",
                    who, charging.trials_before + i + 1, batch + 1, i, fmt::join(points.row(i), ", "),
                    events_text(result.trial_events[i]), events_text(*charging.cover)));
        }
        return;
    }
    const auto& trials = *capability<PrivateTrials>(objective);
    const auto [neighbouring, unit] = call_into_module(who, "stating what a trial protects", [&] {
        return std::pair{trials.trial_neighbouring(), trials.trial_protected_unit()};
    });
    // One scope per run: trials protect the objective's training records, so an algorithm whose own
    // releases protect something else (another dataset, another relation) cannot share their ledger.
    try {
        charging.ledger.set_scope(neighbouring, unit);
    } catch (const RunError& e) {
        throw RunError(fmt::format(
            "{}: its trials are private learners protecting '{}' under '{}', but the run's ledger already protects "
            "other data ({}); the two guarantees cannot be composed into one statement: run the trials with an "
            "algorithm that releases nothing else, or select among them privately",
            who, unit, neighbouring, e.what()));
    }
    for (std::size_t i = 0; i < result.trial_events.size(); ++i) {
        for (PrivacyEvent event : result.trial_events[i]) {
            event.what = fmt::format("trial {} (batch {}, point {})", charging.trials_before + i + 1, batch + 1, i);
            charging.ledger.charge(event);
        }
    }
}

}  // namespace dpbo
