#pragma once
// The events every trial of a private selection must stay within, fixed before the first trial: the
// selection's cost (RepeatAndSelectEvent) is computed from them, and the host then checks each
// trial's declared events against them (Evaluator::cover_trials).
#include <optional>
#include <string>
#include <vector>

#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::private_search {

// Event texts separated by ';' ("laplace:scale=0.1,sensitivity=0.01; gaussian:sigma=2,sensitivity=1"),
// each of a built-in kind. Throws ValidationError naming `owner`, the parameter and the text.
std::vector<PrivacyEvent> parse_trial_events(const std::string& text, const std::string& owner);

// The objective's trial_bound(), or the user's `trial` when the objective declares none. A user's
// bound beside the objective's must cover it (it may only be looser); otherwise ValidationError.
// Neither: ValidationError saying how to state one.
std::vector<PrivacyEvent> resolve_trial_bound(const PrivateTrials& trials, const std::optional<std::string>& user_text,
                                              const std::string& owner);

// The events as `trial` texts joined by "; ", for statements.
std::string trial_bound_text(const std::vector<PrivacyEvent>& bound);

}  // namespace dpbo::private_search
