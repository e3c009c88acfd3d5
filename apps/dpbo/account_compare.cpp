#include "account_compare.hpp"

#include <algorithm>
#include <iostream>
#include <map>
#include <string>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/two_sided_accountant.hpp"

namespace dpbo::cli {
namespace {

using ordered_json = nlohmann::ordered_json;

// Bounds compared across accountants agree to this relative slack: each accountant rounds its
// answer outward by a little (pld by 1e-11, rdp's conversion by its order search), never by more.
constexpr double kSlack = 1e-9;

// `accountant` (named `name`) composed over `events`, answering each question.
ordered_json composed_answers(Accountant& accountant, const std::string& name, const std::vector<PrivacyEvent>& events,
                              const std::vector<double>& epsilons, const std::vector<double>& deltas) {
    return call_into_module(accountant.describe_origin(), "composing the events", [&] {
        for (const PrivacyEvent& event : events) accountant.compose(event);
        const auto* two_sided = capability<TwoSidedAccountant>(accountant);
        ordered_json rows = ordered_json::array();
        for (const double e : epsilons) {
            ordered_json row{{"given", "epsilon"}, {"epsilon", e}, {"delta", accountant.delta_for_epsilon(e)}};
            if (two_sided != nullptr) row["delta_lower"] = two_sided->delta_lower_for_epsilon(e);
            rows.push_back(row);
        }
        for (const double d : deltas) {
            ordered_json row{{"given", "delta"}, {"delta", d}, {"epsilon", accountant.epsilon_for_delta(d)}};
            if (two_sided != nullptr) row["epsilon_lower"] = two_sided->epsilon_lower_for_delta(d);
            rows.push_back(row);
        }
        return ordered_json{{"accountant", name},
                            {"applies", true},
                            {"two_sided", two_sided != nullptr},
                            {"headline", accountant.total().headline()},
                            {"epsilon_delta", rows}};
    });
}

// The accountant `name` with its statement δ set where it takes one (rdp and pld convert their
// composition at it), composed over `events`; or the sentence saying why it does not take them.
ordered_json answers_of(PluginRegistry& registry, const std::string& name, const std::vector<PrivacyEvent>& events,
                        const std::vector<double>& epsilons, const std::vector<double>& deltas) {
    std::map<std::string, std::string> settings;
    const LoadedPlugin* plugin = registry.find(ModuleKind::Accountant, name);
    if (plugin != nullptr && plugin->manifest.schema.find("delta") != nullptr && !deltas.empty())
        settings["delta"] = fmt::format("{:.17g}", deltas.front());
    auto accountant = registry.create_as<Accountant>(name, settings);
    for (const PrivacyEvent& event : events) {
        const std::string refusal = accountant->refusal(event);
        if (!refusal.empty()) return ordered_json{{"accountant", name}, {"applies", false}, {"why", refusal}};
    }
    // An accountant may also refuse a combination of events (pld: Poisson and without-replacement
    // subsampling in one composition) only when it composes them: that too is "does not apply".
    try {
        return composed_answers(*accountant, name, events, epsilons, deltas);
    } catch (const ValidationError& refused) {
        return ordered_json{{"accountant", name}, {"applies", false}, {"why", refused.what()}};
    }
}

// The answered quantity of row `i`: δ when ε was given, ε when δ was.
const char* answered(const ordered_json& row) { return row["given"] == "epsilon" ? "delta" : "epsilon"; }

// Row i of every applicable accountant: an upper bound below another's lower bound is flagged.
ordered_json flags_of(const ordered_json& accountants, std::size_t rows) {
    ordered_json flags = ordered_json::array();
    for (std::size_t i = 0; i < rows; ++i) {
        for (const ordered_json& lower : accountants) {
            if (!lower["applies"].get<bool>() || !lower["two_sided"].get<bool>()) continue;
            const ordered_json& low_row = lower["epsilon_delta"][i];
            const std::string quantity = answered(low_row);
            const double bound = low_row[quantity + "_lower"].get<double>();
            for (const ordered_json& upper : accountants) {
                if (!upper["applies"].get<bool>()) continue;
                const double value = upper["epsilon_delta"][i][quantity].get<double>();
                if (value >= bound * (1.0 - kSlack)) continue;
                flags.push_back(
                    {{"given", low_row["given"]},
                     {"at", low_row[quantity == "delta" ? "epsilon" : "delta"]},
                     {"accountant", upper["accountant"]},
                     {quantity, value},
                     {"below_lower_bound_of", lower["accountant"]},
                     {"lower_bound", bound},
                     {"says", fmt::format("{}'s {} = {:.6g} is below {}'s lower bound {:.6g}: one of the two is wrong",
                                          upper["accountant"].get<std::string>(), quantity, value,
                                          lower["accountant"].get<std::string>(), bound)}});
            }
        }
    }
    return flags;
}

}  // namespace

AccountantComparison compare_accountants(PluginRegistry& registry, const std::vector<PrivacyEvent>& events,
                                         const std::vector<double>& epsilons, const std::vector<double>& deltas) {
    std::vector<std::string> names;
    for (const LoadedPlugin& plugin : registry.plugins())
        if (plugin.manifest.kind == ModuleKind::Accountant) names.push_back(plugin.manifest.name);
    std::sort(names.begin(), names.end());
    AccountantComparison out{ordered_json::array(), ordered_json::array()};
    for (const std::string& name : names)
        out.accountants.push_back(answers_of(registry, name, events, epsilons, deltas));
    std::string reasons;
    for (const ordered_json& a : out.accountants) {
        if (a["applies"].get<bool>()) {
            out.flags = flags_of(out.accountants, epsilons.size() + deltas.size());
            return out;
        }
        reasons += fmt::format("; {}: {}", a["accountant"].get<std::string>(), a["why"].get<std::string>());
    }
    throw ValidationError(fmt::format("--compare: no accountant takes these events{}", reasons));
}

void print_comparison(const AccountantComparison& comparison) {
    std::vector<const ordered_json*> applying;
    for (const ordered_json& a : comparison.accountants)
        if (a["applies"].get<bool>()) applying.push_back(&a);
    std::string header = "| question |";
    std::string rule = "|---|";
    for (const ordered_json* a : applying) {
        header += fmt::format(" {} |", (*a)["accountant"].get<std::string>());
        rule += "---|";
    }
    std::cout << header << "\n" << rule << "\n";
    const std::size_t rows = applying.empty() ? 0 : (*applying.front())["epsilon_delta"].size();
    for (std::size_t i = 0; i < rows; ++i) {
        const ordered_json& first = (*applying.front())["epsilon_delta"][i];
        const bool given_epsilon = first["given"] == "epsilon";
        std::string line = given_epsilon ? fmt::format("| delta at epsilon = {:.6g} |", first["epsilon"].get<double>())
                                         : fmt::format("| epsilon at delta = {:.6g} |", first["delta"].get<double>());
        for (const ordered_json* a : applying) {
            const ordered_json& row = (*a)["epsilon_delta"][i];
            const std::string quantity = given_epsilon ? "delta" : "epsilon";
            line += row.contains(quantity + "_lower") ? fmt::format(" {:.6g} (≥ {:.6g}) |", row[quantity].get<double>(),
                                                                    row[quantity + "_lower"].get<double>())
                                                      : fmt::format(" {:.6g} |", row[quantity].get<double>());
        }
        std::cout << line << "\n";
    }
    for (const ordered_json& a : comparison.accountants)
        if (!a["applies"].get<bool>())
            std::cout << fmt::format("not applicable: {}: {}\n", a["accountant"].get<std::string>(),
                                     a["why"].get<std::string>());
    for (const ordered_json& flag : comparison.flags) std::cout << "FLAG: " << flag["says"].get<std::string>() << "\n";
    if (comparison.flags.empty() && !applying.empty())
        std::cout << "every upper bound lies at or above every lower bound\n";
}

}  // namespace dpbo::cli
