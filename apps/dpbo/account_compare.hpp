#pragma once
// dpbo account --compare: the same events composed by every accountant that takes them, side by
// side, so that a reader sees the tightest honest figure and how the accountants' answers relate.
// Every upper bound must lie at or above every lower bound of the same quantity (a two-sided
// accountant's, e.g. pld's optimistic discretisation): one that does not is flagged, since then one
// of the two accountants is wrong.
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/host/registry.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::cli {

struct AccountantComparison {
    nlohmann::ordered_json accountants;  // per accountant: its answers, or why it does not apply
    nlohmann::ordered_json flags;        // an upper bound below another accountant's lower bound
};

// Composes `events` with each accountant plugin in `registry` (by name) and answers δ(ε) at each
// of `epsilons` and ε(δ) at each of `deltas`.
AccountantComparison compare_accountants(PluginRegistry& registry, const std::vector<PrivacyEvent>& events,
                                         const std::vector<double>& epsilons, const std::vector<double>& deltas);

// The comparison as a text table, one row per question, one column per accountant that applies;
// then the accountants that do not apply and the flags.
void print_comparison(const AccountantComparison& comparison);

}  // namespace dpbo::cli
