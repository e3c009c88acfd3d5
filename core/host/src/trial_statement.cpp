#include "trial_statement.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/capability.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

namespace {
constexpr const char* kTrialChargePrefix = "trial ";
}  // namespace

PrivacyStatement trial_search_statement(const PrivacyStatement& described, const Objective& objective,
                                        const Evaluator& evaluator, const PrivacyLedger& ledger) {
    if (capability<PrivateTrials>(objective) == nullptr || evaluator.trial_cover() ||
        described.notion != PrivacyNotion::NotPrivate || ledger.charges() == 0)
        return described;
    const std::string who = objective.describe_origin();
    const auto [outputs, auxiliary] = call_into_module(who, "describing its outputs", [&] {
        std::vector<std::string> output_names, auxiliary_names;
        for (const Output& output : objective.outputs()) output_names.push_back(output.name);
        for (const AuxiliaryOutput& output : objective.auxiliary_outputs()) auxiliary_names.push_back(output.name);
        return std::pair{output_names, auxiliary_names};
    });
    const std::size_t trials = evaluator.evaluations();
    // The notion is the ledger's; statement_for replaces the numbers with its composition and the
    // scope with the trials' (the ledger's scope, set by the host when it charged the first trial).
    PrivacyStatement statement;
    statement.notion = ledger.spent().notion;
    statement.released = {
        fmt::format("every trial's hyperparameters and its privatised {} ({} trials), each value as the trial "
                    "released it through its own mechanism",
                    fmt::join(outputs, ", "), trials),
        "what the search computed from those values alone (the best trial, the trace): post-processing"};
    // A trial's auxiliary outputs are part of what the trial releases (PrivateTrials): covered by its events.
    if (!auxiliary.empty())
        statement.released.push_back(
            fmt::format("every trial's auxiliary outputs ({}), which {} declares covered by each trial's events",
                        fmt::join(auxiliary, ", "), who));
    // The algorithm's own words describe exact values ("released exactly"); a trial's are privatised.
    statement.mechanism = fmt::format(
        "composition of {} trials, each a private learner that declared its events (charged one by one; no "
        "private selection among them, so the cost is every trial's, not one trial's); {} chose the trials' "
        "hyperparameters from their released values only",
        trials, ledger.owner());
    statement.assumptions = {
        "each trial spent what it declared: dpbo charges the events a trial declares and cannot check noise the "
        "trial drew outside dpbo's secure layer"};
    return statement;
}

std::vector<std::vector<std::string>> charged_trial_events(const PrivacyLedger& ledger) {
    std::vector<std::vector<std::string>> out;
    std::string current;
    for (const LedgerEntry& entry : ledger.log()) {
        // The evaluator names each trial's charges "trial N (batch B, point I)" (evaluation_trials.cpp).
        if (entry.event.what.rfind(kTrialChargePrefix, 0) != 0) continue;
        if (entry.event.what != current) {
            out.emplace_back();
            current = entry.event.what;
        }
        PrivacyEvent bare = entry.event;
        bare.what.clear();
        out.back().push_back(event_text(bare));
    }
    return out;
}

}  // namespace dpbo
