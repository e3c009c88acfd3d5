// dpbo account: a privacy calculator over the accountant plugins. Composes events and converts the
// result to (ε, δ) pairs.
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <memory>
#include <string>
#include <variant>
#include <iostream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "account_compare.hpp"
#include "cli.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/two_sided_accountant.hpp"
#include "job_options.hpp"
#include "noise_calibration.hpp"
#include "privacy_event_text.hpp"
#include "selection_accounting.hpp"

namespace dpbo::cli {

namespace {

int calibrate_command(const std::function<std::shared_ptr<Accountant>()>& make, const std::vector<PrivacyEvent>& events,
                      const std::vector<double>& epsilons, const std::vector<double>& deltas,
                      const std::string& accountant_name, bool json_output) {
    const auto* subsampled = events.size() == 1 ? events.front().as<SubsampledGaussianEvent>() : nullptr;
    if (subsampled == nullptr || events.front().repetitions != 1)
        throw ValidationError(
            "--calibrate-sigma needs exactly one --event subsampled-gaussian:q=...,steps=...,sampling=... "
            "(no sigma, no repetitions) and no --mu");
    if (epsilons.size() != 1 || deltas.size() != 1)
        throw ValidationError("--calibrate-sigma needs one --epsilon (the target) and one --delta");
    const SubsampledGaussianEvent& event = *subsampled;
    const SigmaCalibration result = calibrate_sigma(
        [&] {
            auto fresh = make();
            return std::unique_ptr<Accountant>(fresh->clone());
        },
        event, epsilons.front(), deltas.front());
    if (json_output) {
        print_json(json{{"accountant", accountant_name},
                        {"sigma", result.sigma},
                        {"epsilon", result.epsilon},
                        {"target_epsilon", epsilons.front()},
                        {"delta", deltas.front()},
                        {"sampling_rate", event.sampling_rate},
                        {"steps", event.steps},
                        {"sampling", to_string(event.sampling)},
                        {"neighbouring", to_string(event.neighbouring)}});
        return kSuccess;
    }
    std::cout << fmt::format(
        "noise multiplier sigma = {:.9g} ({} accountant): ({:.6g}, {:.6g})-DP, target epsilon {:.6g}\n", result.sigma,
        accountant_name, result.epsilon, deltas.front(), epsilons.front());
    return kSuccess;
}

// Each composed event as its kind, its parameters (the event's own names and values), its
// repetitions and its one-line description.
json events_json(const std::vector<PrivacyEvent>& events) {
    json out = json::array();
    for (const PrivacyEvent& event : events) {
        json parameters = json::object();
        for (const auto& [name, value] : event.description().parameters())
            std::visit([&, &key = name](const auto& v) { parameters[key] = v; }, value);
        out.push_back({{"kind", std::string(event.kind())},
                       {"parameters", parameters},
                       {"repetitions", event.repetitions},
                       {"describes", event.describe()}});
    }
    return out;
}

// Beside a selection's ε (epsilon_delta): the ε of one trial (what a report of one training would
// claim) and of the composition of E[K] trials (what plain composition charges), at each δ asked.
json selection_comparison(const std::function<std::shared_ptr<Accountant>()>& make,
                          const std::vector<PrivacyEvent>& trial, const TrialCount& count,
                          const std::vector<double>& deltas) {
    const AccountantFactory fresh = [&] { return make(); };
    const std::uint64_t k = compared_trials(count);
    json rows = json::array();
    for (const double delta : deltas) {
        rows.push_back({{"delta", delta},
                        {"selection_epsilon", epsilon_of(fresh, {selection_event(trial, count)}, delta)},
                        {"one_trial_epsilon", epsilon_of(fresh, trial, delta)},
                        {"composition_epsilon", epsilon_of(fresh, repeated(trial, k), delta)}});
    }
    return json{{"count", count.text()},
                {"describes", count.describe()},
                {"released", "only the best trial"},
                {"composed_trials", k},
                {"note",
                 "epsilon_delta is the selection's; one_trial_epsilon is one trial alone; "
                 "composition_epsilon composes E[K] (rounded up) trials, all released"},
                {"compared", rows}};
}

}  // namespace

int command_account(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string accountant_name, conversion, select;
    bool calibrate = false, compare = false;
    std::vector<std::string> mus, events, epsilons, deltas;
    po::options_description options("options");
    options.add_options()("accountant", po::value(&accountant_name),
                          "accountant module (default: gdp, or rdp when an event needs it, e.g. subsampled-gaussian)")(
        "conversion", po::value(&conversion),
        "rdp accountant: RDP to (epsilon, delta) conversion, tight (default) or classic")(
        "calibrate-sigma", po::bool_switch(&calibrate),
        "find the smallest noise multiplier of the one subsampled-gaussian --event (give no sigma) whose epsilon at "
        "--delta is at most --epsilon")("mu", po::value(&mus)->composing(), "compose a mu-GDP mechanism (repeatable)")(
        "event", po::value(&events)->composing(),
        fmt::format("compose an event KIND:key=value,...[xREPEATS], e.g. gaussian:sigma=2,sensitivity=1x100; kinds: "
                    "{}, and the kinds plugins add (dpbo list --kind event; dpbo info KIND)",
                    describe_builtin_event_kinds())
            .c_str())("epsilon", po::value(&epsilons)->composing(), "report the delta at this epsilon (repeatable)")(
        "delta", po::value(&deltas)->composing(), "report the epsilon at this delta (repeatable)")(
        "select", po::value(&select),
        "the events are ONE trial's; account the best of K such trials, K drawn from DIST: geometric:mean=M, "
        "logarithmic:mean=M, negative-binomial:mean=M,eta=E, poisson:mean=M or fixed:k=K (composition); "
        "compared with one trial and with the composition of E[K] trials")(
        "compare", po::bool_switch(&compare),
        "answer with every accountant that takes the events, side by side (both bounds of a two-sided one), and flag "
        "an upper bound that falls below another accountant's lower bound (exit 1)");
    options.add(common_options(common));
    parse_command(arguments, options);
    if (common.help) {
        print_help(
            "dpbo account [--mu M ...] [--event KIND:k=v,...] [--select DIST] [--compare] [--epsilon E ...] [--delta D ...]",
            options,
            "Composes the privacy events with an accountant plugin and states the result as (epsilon, delta) "
            "pairs; or, with --calibrate-sigma, finds the noise multiplier that meets a target.");
        return kSuccess;
    }
    if (mus.empty() && events.empty()) throw ValidationError("account needs at least one --mu or --event to compose");

    // Everything the user wrote is read and checked before any accountant code runs. The plugins are
    // loaded first: a plugin may add the kind of an --event.
    PluginRegistry registry;
    load_plugins(registry, common);
    std::vector<PrivacyEvent> to_compose;
    for (const auto& text : mus) {
        const double mu = parse_finite_number(text, "--mu");
        if (!(mu > 0.0)) throw ValidationError(fmt::format("--mu '{}' must be > 0", text));
        to_compose.push_back({GdpEvent{mu}});
    }
    for (const auto& text : events) {
        // With --calibrate-sigma the event omits its noise multiplier; a placeholder of 1 lets it parse
        // and is replaced by every σ the calibration tries.
        const bool needs_sigma = calibrate && text.find("sigma=") == std::string::npos &&
                                 text.find("noise_multiplier=") == std::string::npos;
        to_compose.push_back(parse_privacy_event(needs_sigma ? text + ",sigma=1" : text, registry));
    }

    // --select: the events so far are one trial's; the selection among K trials wraps them.
    const std::vector<PrivacyEvent> trial = to_compose;
    std::optional<TrialCount> count;
    if (!select.empty()) {
        if (calibrate)
            throw ValidationError(
                "--calibrate-sigma does not take --select; dpbo plan calibrates a trial under a selection");
        count = parse_select(select);
        to_compose = {selection_event(trial, *count)};
    }

    std::vector<double> epsilon_values, delta_values;
    for (const auto& text : epsilons) {
        const double e = parse_finite_number(text, "--epsilon");
        if (e < 0.0) throw ValidationError(fmt::format("--epsilon '{}' must be >= 0", text));
        epsilon_values.push_back(e);
    }
    for (const auto& text : deltas) {
        const double d = parse_finite_number(text, "--delta");
        if (!(d > 0.0 && d < 1.0)) throw ValidationError(fmt::format("--delta '{}' must lie in (0, 1)", text));
        delta_values.push_back(d);
    }
    // With no question asked, answer the usual ones.
    if (epsilon_values.empty() && delta_values.empty()) {
        epsilon_values = {0.5, 1.0, 2.0, 4.0, 8.0};
        delta_values = {1e-5, 1e-6};
    }

    if (compare) {
        if (!accountant_name.empty() || calibrate || !conversion.empty())
            throw ValidationError(
                "--compare answers with every accountant; it takes no --accountant, "
                "--calibrate-sigma or --conversion");
        const AccountantComparison comparison = compare_accountants(registry, to_compose, epsilon_values, delta_values);
        if (common.json) {
            print_json(json{{"compared", comparison.accountants},
                            {"flags", comparison.flags},
                            {"events", events_json(to_compose)}});
        } else {
            print_comparison(comparison);
        }
        return comparison.flags.empty() ? kSuccess : kRunFailure;
    }

    const bool named = !accountant_name.empty();
    if (!named) {
        // gdp by default; rdp when an event needs it (gdp accounts Gaussian and GDP events only).
        accountant_name = "gdp";
        const auto gdp = registry.create_as<Accountant>("gdp");
        for (const PrivacyEvent& event : to_compose)
            if (!gdp->accepts(event)) accountant_name = "rdp";
    }
    std::map<std::string, std::string> settings;
    if (!conversion.empty()) {
        if (accountant_name != "rdp")
            throw ValidationError(fmt::format("--conversion applies to the rdp accountant, not '{}'", accountant_name));
        settings["conversion"] = conversion;
    }
    if ((accountant_name == "rdp" || accountant_name == "pld") && !delta_values.empty())
        settings["delta"] = fmt::format("{:.17g}", delta_values.front());
    auto make = [&] { return registry.create_as<Accountant>(accountant_name, settings); };
    auto accountant = make();
    // A named accountant that cannot take an event: say why (what it composes, what the event offers,
    // the kinds it takes) and which accountant can.
    for (const PrivacyEvent& event : to_compose) {
        const std::string refusal = accountant->refusal(event);
        if (refusal.empty()) continue;
        std::string suggestion;
        for (const char* other : {"rdp", "basic"}) {
            if (other == accountant_name || registry.find(ModuleKind::Accountant, other) == nullptr) continue;
            if (registry.create_as<Accountant>(other)->accepts(event)) {
                suggestion = fmt::format("; use --accountant {}", other);
                break;
            }
        }
        throw ValidationError(fmt::format("accountant '{}' {}{}", accountant_name, refusal, suggestion));
    }
    if (calibrate)
        return calibrate_command(make, to_compose, epsilon_values, delta_values, accountant_name, common.json);
    const auto [total, pairs] = call_into_module(accountant->describe_origin(), "composing the events", [&] {
        for (const PrivacyEvent& event : to_compose) accountant->compose(event);
        // A two-sided accountant (pld) brackets each answer: the upper bound is the guarantee, the
        // lower bound how much an exact computation could at most gain.
        const auto* two_sided = capability<TwoSidedAccountant>(*accountant);
        json answers = json::array();
        for (const double e : epsilon_values) {
            json answer{{"epsilon", e}, {"delta", accountant->delta_for_epsilon(e)}, {"given", "epsilon"}};
            if (two_sided) answer["delta_lower"] = two_sided->delta_lower_for_epsilon(e);
            answers.push_back(answer);
        }
        for (const double d : delta_values) {
            json answer{{"epsilon", accountant->epsilon_for_delta(d)}, {"delta", d}, {"given", "delta"}};
            if (two_sided) answer["epsilon_lower"] = two_sided->epsilon_lower_for_delta(d);
            answers.push_back(answer);
        }
        return std::pair{accountant->total(), answers};
    });

    if (common.json) {
        json out{{"accountant", accountant_name}, {"notion", to_string(total.notion)}, {"headline", total.headline()}};
        if (total.notion == PrivacyNotion::GaussianDP) out["mu"] = total.mu;
        if (total.notion == PrivacyNotion::PureDP || total.notion == PrivacyNotion::ApproxDP) {
            out["epsilon"] = total.epsilon;
            out["delta"] = total.delta;
            if (capability<TwoSidedAccountant>(*accountant)) out["mechanism"] = total.mechanism;
        }
        if (total.notion == PrivacyNotion::Renyi) {
            out["mechanism"] = total.mechanism;
            out["rdp_curve"] = total.rdp_curve;
            out["neighbouring"] = total.neighbouring;
        }
        out["epsilon_delta"] = pairs;
        out["events"] = events_json(to_compose);
        if (count) out["selection"] = selection_comparison(make, trial, *count, delta_values);
        print_json(out);
        return kSuccess;
    }
    std::cout << fmt::format("composition ({} accountant): {}\n", accountant_name, total.headline());
    const bool two_sided = capability<TwoSidedAccountant>(*accountant) != nullptr;
    if (total.notion == PrivacyNotion::Renyi || two_sided) std::cout << "  " << total.mechanism << "\n";
    for (const auto& p : pairs) {
        const bool given_epsilon = p["given"] == "epsilon";
        const std::string note = given_epsilon ? "   [delta at this epsilon]" : "   [epsilon at this delta]";
        if (!two_sided) {
            std::cout << fmt::format("  ({:.6g}, {:.6g})-DP{}\n", p["epsilon"].get<double>(), p["delta"].get<double>(),
                                     note);
        } else if (given_epsilon) {
            std::cout << fmt::format("  (ε = {:.6g}, δ ≤ {:.6g} (≥ {:.6g}))-DP{}\n", p["epsilon"].get<double>(),
                                     p["delta"].get<double>(), p["delta_lower"].get<double>(), note);
        } else {
            std::cout << fmt::format("  (ε ≤ {:.6g} (≥ {:.6g}), δ = {:.6g})-DP{}\n", p["epsilon"].get<double>(),
                                     p["epsilon_lower"].get<double>(), p["delta"].get<double>(), note);
        }
    }
    if (count) {
        const json comparison = selection_comparison(make, trial, *count, delta_values);
        std::cout << fmt::format("  selection: {}, only the best trial released\n", count->describe());
        for (const json& row : comparison["compared"])
            std::cout << fmt::format(
                "  at delta {:.6g}: selection epsilon {:.6g}; one trial {:.6g}; composition of "
                "{} trials {:.6g}\n",
                row["delta"].get<double>(), row["selection_epsilon"].get<double>(),
                row["one_trial_epsilon"].get<double>(), comparison["composed_trials"].get<int>(),
                row["composition_epsilon"].get<double>());
    }
    return kSuccess;
}

}  // namespace dpbo::cli
