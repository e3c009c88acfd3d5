#include "dpbo/host/privacy_limits.hpp"

#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/module_call_guard.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"

namespace dpbo {

namespace {

// Group privacy: what the statement's parameters become for k protected units at once (Dwork & Roth
// 2014, Thm 2.2 and its (ε, δ) form; Dong, Roth & Su 2022, Thm 2.14 for μ-GDP).
std::string group_cost(const PrivacyStatement& statement) {
    switch (statement.notion) {
        case PrivacyNotion::PureDP:
            return "at k·ε";
        case PrivacyNotion::ApproxDP:
            return "at (k·ε, k·e^((k−1)ε)·δ)";
        case PrivacyNotion::GaussianDP:
            return "at k·μ-GDP";
        case PrivacyNotion::Renyi:
        case PrivacyNotion::NotPrivate:
            break;
    }
    return "by a guarantee that weakens with k";
}

}  // namespace

void add_privacy_limits(PrivacyStatement& statement, const Objective& objective) {
    std::vector<std::string>& out = statement.not_protected;
    if (statement.notion == PrivacyNotion::NotPrivate) {
        out.push_back("nothing: the run claims no privacy, so every value it writes may reveal the data");
        return;
    }
    const std::string who = objective.describe_origin();
    const std::size_t records = call_into_module(who, "counting its records", [&] { return record_count(objective); });
    const std::vector<std::string> declared =
        call_into_module(who, "stating what its privacy does not protect", [&] { return privacy_limits(objective); });
    const std::string& unit = statement.protected_unit;
    out.push_back(
        "what is written beside the release but not listed as released (evaluation-only values, trace columns "
        "marked evaluation-only, timings): computed from the data without privatisation; share only what is "
        "released");
    out.push_back(
        fmt::format("more than {} at once (e.g. one person's several records): k of them are protected only "
                    "{} (group privacy)",
                    unit, group_cost(statement)));
    if (records > 0)
        out.push_back(
            "the number of records in the objective's data: treated as public (the noise is calibrated to it), not "
            "hidden by the noise");
    out.push_back(
        fmt::format("what the data as a whole reveal: the released values describe the data set on purpose; the "
                    "guarantee bounds what they reveal about {}, not about the population the data come from",
                    unit));
    out.push_back(
        "choices made by looking at the data (the space and its bounds, the start, the algorithm's parameters, "
        "clipping bounds and declared constants): the guarantee takes them as public inputs, so a choice tuned on "
        "the same data is outside it");
    if (!statement.conditional_on.empty())
        out.push_back(
            fmt::format("data for which it does not hold that {}: the guarantee is conditional on it, not "
                        "worst-case",
                        statement.conditional_on));
    out.insert(out.end(), declared.begin(), declared.end());
}

}  // namespace dpbo
