// dpbo account: a privacy calculator over the accountant plugins. Composes events and converts the
// result to (ε, δ) pairs.
#include <cmath>
#include <iostream>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/module_call_guard.hpp"
#include "job_options.hpp"
#include "privacy_event_text.hpp"

namespace dpbo::cli {

int command_account(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string accountant_name = "gdp";
    std::vector<std::string> mus, events, epsilons, deltas;
    po::options_description options("dpbo account [--mu M ...] [--event KIND:k=v,...] [--epsilon E ...] [--delta D ...]");
    options.add_options()
        ("accountant", po::value(&accountant_name)->default_value("gdp"), "accountant module")
        ("mu", po::value(&mus)->composing(), "compose a mu-GDP mechanism (repeatable)")
        ("event", po::value(&events)->composing(),
         "compose an event KIND:key=value,...[xREPEATS], e.g. gaussian:sigma=2,sensitivity=1x100; kinds: "
         "gaussian (sigma, sensitivity), gdp (mu), laplace (scale, sensitivity), exponential (epsilon, "
         "quality_sensitivity), subsampled-gaussian (sampling_rate, noise_multiplier, steps, sampling, neighbouring), "
         "pure (epsilon), approx (epsilon, delta)")
        ("epsilon", po::value(&epsilons)->composing(), "report the delta at this epsilon (repeatable)")
        ("delta", po::value(&deltas)->composing(), "report the epsilon at this delta (repeatable)");
    options.add(common_options(common));
    parse_command(arguments, options);
    if (common.help) {
        std::cout << options << "\n";
        return kSuccess;
    }
    if (mus.empty() && events.empty())
        throw ValidationError("account needs at least one --mu or --event to compose");

    // Everything the user wrote is read and checked before any accountant code runs.
    std::vector<PrivacyEvent> to_compose;
    for (const auto& text : mus) {
        const double mu = parse_finite_number(text, "--mu");
        if (!(mu > 0.0)) throw ValidationError(fmt::format("--mu '{}' must be > 0", text));
        to_compose.push_back({GdpEvent{mu}});
    }
    for (const auto& text : events) to_compose.push_back(parse_privacy_event(text));

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

    PluginRegistry registry;
    load_plugins(registry, common);
    auto accountant = registry.create_as<Accountant>(accountant_name);
    const auto [total, pairs] = call_into_module(accountant->describe_origin(), "composing the events", [&] {
        for (const PrivacyEvent& event : to_compose) accountant->compose(event);
        json answers = json::array();
        for (const double e : epsilon_values)
            answers.push_back({{"epsilon", e}, {"delta", accountant->delta_for_epsilon(e)}, {"given", "epsilon"}});
        for (const double d : delta_values)
            answers.push_back({{"epsilon", accountant->epsilon_for_delta(d)}, {"delta", d}, {"given", "delta"}});
        return std::pair{accountant->total(), answers};
    });

    if (common.json) {
        json out{{"accountant", accountant_name}, {"notion", to_string(total.notion)}, {"headline", total.headline()}};
        if (total.notion == PrivacyNotion::GaussianDP) out["mu"] = total.mu;
        if (total.notion == PrivacyNotion::PureDP || total.notion == PrivacyNotion::ApproxDP) {
            out["epsilon"] = total.epsilon;
            out["delta"] = total.delta;
        }
        out["epsilon_delta"] = pairs;
        print_json(out);
        return kSuccess;
    }
    std::cout << fmt::format("composition ({} accountant): {}\n", accountant_name, total.headline());
    for (const auto& p : pairs)
        std::cout << fmt::format("  ({:.6g}, {:.6g})-DP{}\n", p["epsilon"].get<double>(), p["delta"].get<double>(),
                                 p["given"] == "epsilon" ? "   [delta at this epsilon]" : "   [epsilon at this delta]");
    return kSuccess;
}

}  // namespace dpbo::cli
