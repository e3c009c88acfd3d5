// dpbo plan: budget-first planning of a private tuning. Given a target (ε, δ), one trial's events
// with one free parameter ('?') and K's distribution, finds the free parameter's value that meets the
// target under private selection (bisection, the answer checked ≤ target by the accountant), and
// prints the compute it implies (E[K], the 99th-percentile K) and the trade-off across distributions
// and means.
#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "job_options.hpp"
#include "privacy_event_text.hpp"
#include "selection_accounting.hpp"

namespace dpbo::cli {

namespace {

// Which way a free key makes a trial cheaper in privacy, its range, and whether it is a whole number.
struct FreeKey {
    bool larger_is_cheaper = false;
    double lowest = 0.0;
    double highest = 0.0;
    bool integer = false;
};

// Larger noise (sigma, noise_multiplier, scale) costs less; more steps, a larger sampling rate, ε, μ,
// δ or sensitivity cost more. The bracket is each key's whole meaningful range.
std::optional<FreeKey> free_key(const std::string& key) {
    if (key == "sigma" || key == "noise_multiplier" || key == "scale") return FreeKey{true, 1e-3, 1e6, false};
    if (key == "steps") return FreeKey{false, 1, 1e9, true};
    if (key == "q" || key == "sampling_rate") return FreeKey{false, 1e-9, 1.0, false};
    if (key == "epsilon" || key == "mu" || key == "sensitivity" || key == "quality_sensitivity")
        return FreeKey{false, 1e-9, 1e6, false};
    return std::nullopt;
}

struct Target {
    double epsilon = 0.0;
    double delta = 0.0;
};

Target parse_target(const std::string& text) {
    Target out;
    bool has_epsilon = false, has_delta = false;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        const auto eq = item.find('=');
        const std::string key = eq == std::string::npos ? item : item.substr(0, eq);
        if (eq == std::string::npos || (key != "epsilon" && key != "delta"))
            throw ValidationError(
                fmt::format("--target '{}': '{}' is not epsilon=E or delta=D; expected epsilon=E,delta=D", text, item));
        const double value = parse_finite_number(item.substr(eq + 1), fmt::format("--target '{}' {}", text, key));
        if (key == "epsilon") {
            if (!(value > 0.0)) throw ValidationError(fmt::format("--target '{}': epsilon must be > 0", text));
            out.epsilon = value;
            has_epsilon = true;
        } else {
            if (!(value > 0.0 && value < 1.0))
                throw ValidationError(fmt::format("--target '{}': delta must lie in (0, 1)", text));
            out.delta = value;
            has_delta = true;
        }
        start = end + 1;
    }
    if (!has_epsilon || !has_delta)
        throw ValidationError(fmt::format("--target '{}' needs both epsilon=E and delta=D", text));
    return out;
}

// The events with the free parameter: which text, which key, and a builder for any value of it.
struct FreeEvents {
    std::string key;
    FreeKey rule;
    std::function<std::vector<PrivacyEvent>(double)> build;
};

FreeEvents find_free(const std::vector<std::string>& texts, PluginRegistry& registry) {
    std::optional<std::size_t> which;
    std::string key;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        for (std::size_t at = texts[i].find("=?"); at != std::string::npos; at = texts[i].find("=?", at + 1)) {
            if (which)
                throw ValidationError(
                    fmt::format("plan needs exactly one free parameter ('?'); '{}' has a second one", texts[i]));
            const std::size_t begin = texts[i].find_last_of(":,", at) + 1;
            key = texts[i].substr(begin, at - begin);
            which = i;
        }
    }
    if (!which)
        throw ValidationError(
            "plan needs exactly one free parameter: write '?' as one value of an --event, e.g. "
            "subsampled-gaussian:q=0.01,sigma=?,steps=10000,sampling=poisson");
    const auto rule = free_key(key);
    if (!rule)
        throw ValidationError(fmt::format(
            "plan cannot solve for '{}' in '{}': allowed free keys: sigma, noise_multiplier, scale (larger is "
            "cheaper), steps, q, sampling_rate, epsilon, mu (larger is costlier)",
            key, texts[*which]));
    // Every event is read once now (with a value inside the bracket) so that a malformed one is
    // refused before any search.
    auto build = [texts, index = *which, &registry](double value) {
        std::vector<PrivacyEvent> out;
        for (std::size_t i = 0; i < texts.size(); ++i) {
            std::string text = texts[i];
            if (i == index) text.replace(text.find("=?"), 2, fmt::format("={:.17g}", value));
            out.push_back(parse_privacy_event(text, registry));
        }
        return out;
    };
    build(rule->integer ? rule->lowest : std::sqrt(rule->lowest * rule->highest));
    return {key, *rule, build};
}

struct Solution {
    double value = 0.0;
    double epsilon = 0.0;  // of the selection at `value`, ≤ the target
};

// The value at the boundary of the target: the least noise, or the most steps (rate, ε), that meets
// it. From `guess`, steps of ×4 toward the side that changes the answer find a bracket inside the
// key's range; bisection then narrows it to a relative width `relative` (whole numbers: to 1). The
// answer is always a value whose ε was computed and checked ≤ target.
Solution solve(const FreeEvents& free, const std::function<double(const std::vector<PrivacyEvent>&)>& cost,
               const Target& target, double relative, double guess) {
    const FreeKey& rule = free.rule;
    const auto clamp = [&](double v) {
        v = std::min(rule.highest, std::max(rule.lowest, v));
        return rule.integer ? std::round(v) : v;
    };
    // Toward cheaper (safe) or costlier (risky) values.
    const auto step = [&](double v, bool cheaper) { return clamp(cheaper == rule.larger_is_cheaper ? v * 4 : v / 4); };
    double value = clamp(guess);
    double epsilon = cost(free.build(value));
    double good = 0.0, bad = 0.0, good_epsilon = 0.0;
    if (epsilon <= target.epsilon) {
        good = value;
        good_epsilon = epsilon;
        for (;;) {
            const double next = step(good, false);
            if (next == good) return {good, good_epsilon};  // the range's costliest end meets the target
            const double e = cost(free.build(next));
            if (e > target.epsilon) {
                bad = next;
                break;
            }
            good = next;
            good_epsilon = e;
        }
    } else {
        bad = value;
        for (;;) {
            const double next = step(bad, true);
            if (next == bad)
                throw ValidationError(fmt::format(
                    "target epsilon {} at delta {} is unreachable: even {} = {:g} (the bracket's {} end) gives "
                    "epsilon {:.6g}",
                    target.epsilon, target.delta, free.key, bad, rule.larger_is_cheaper ? "upper" : "lower", epsilon));
            epsilon = cost(free.build(next));
            if (epsilon <= target.epsilon) {
                good = next;
                good_epsilon = epsilon;
                break;
            }
            bad = next;
        }
    }
    for (int i = 0; i < 200; ++i) {
        double middle;
        if (rule.integer) {
            if (std::fabs(good - bad) <= 1.0) break;
            middle = std::floor((good + bad) / 2.0);
        } else {
            if (std::fabs(good - bad) <= relative * std::min(good, bad)) break;
            middle = std::sqrt(good * bad);
        }
        const double e = cost(free.build(middle));
        if (e <= target.epsilon) {
            good = middle;
            good_epsilon = e;
        } else {
            bad = middle;
        }
    }
    return {good, good_epsilon};
}

std::string family_name(const TrialCount& count) {
    if (count.family == TrialCount::Family::Fixed) return "fixed (composition)";
    if (count.family == TrialCount::Family::Poisson) return "poisson";
    if (count.eta == 1.0) return "geometric";
    if (count.eta == 0.0) return "logarithmic";
    return fmt::format("negative-binomial eta={}", event_number(count.eta));
}

TrialCount with_mean(TrialCount count, double mean) {
    count.mean = count.family == TrialCount::Family::Fixed ? std::ceil(mean) : mean;
    return count;
}

}  // namespace

int command_plan(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string target_text, select_text, accountant_name = "rdp";
    std::vector<std::string> events;
    po::options_description options("options");
    options.add_options()("target", po::value(&target_text), "the budget of the whole search: epsilon=E,delta=D")(
        "event", po::value(&events)->composing(),
        "one trial's event (repeatable), KIND:key=value,...; exactly one value over all events is '?', the "
        "parameter to solve for (sigma, noise_multiplier, scale, steps, q, sampling_rate, epsilon, mu)")(
        "select", po::value(&select_text),
        "K's distribution: geometric:mean=M, logarithmic:mean=M, negative-binomial:mean=M,eta=E, poisson:mean=M "
        "or fixed:k=K")("accountant", po::value(&accountant_name), "accountant module (default: rdp)");
    options.add(common_options(common));
    parse_command(arguments, options);
    if (common.help) {
        print_help("dpbo plan --target epsilon=E,delta=D --event 'KIND:...,KEY=?,...' --select DIST", options,
                   "Solves for the free parameter ('?') of a trial so that the best of K trials, K drawn from DIST, "
                   "meets the target (epsilon, delta); prints the compute it implies (E[K], 99th-percentile K) and "
                   "the trade-off across K's distributions and means (the given mean, x0.5 and x2).");
        return kSuccess;
    }
    if (target_text.empty()) throw ValidationError("plan needs --target epsilon=E,delta=D");
    if (events.empty()) throw ValidationError("plan needs one or more --event, one of them with a '?' value");
    if (select_text.empty()) throw ValidationError("plan needs --select DIST (e.g. geometric:mean=10)");
    const Target target = parse_target(target_text);
    const TrialCount count = parse_select(select_text);

    PluginRegistry registry;
    load_plugins(registry, common);
    const FreeEvents free = find_free(events, registry);
    std::map<std::string, std::string> settings;
    if (accountant_name == "rdp") settings["delta"] = fmt::format("{:.17g}", target.delta);
    const AccountantFactory fresh = [&] { return registry.create_as<Accountant>(accountant_name, settings); };
    auto selection_cost = [&](const TrialCount& k) {
        return [&, k](const std::vector<PrivacyEvent>& trial) {
            return epsilon_of(fresh, {selection_event(trial, k)}, target.delta);
        };
    };

    // The first guess: the middle of the key's range (geometrically); the table's cells start from
    // the answer.
    const double middle_of_range = std::sqrt(free.rule.lowest * free.rule.highest);
    const Solution main = solve(free, selection_cost(count), target, 1e-6, middle_of_range);
    const std::uint64_t p99 = count.quantile(0.99);
    const double one_trial = epsilon_of(fresh, free.build(main.value), target.delta);

    // The trade-off: each distribution at the given mean, half and double it (a fixed k is the
    // composition of k trials), each solved to a relative 1e-3.
    json table = json::array();
    const TrialCount base_geometric = TrialCount::parse("geometric:mean=1");
    std::vector<TrialCount> families = {TrialCount::parse("logarithmic:mean=1"), base_geometric,
                                        TrialCount::parse("poisson:mean=1"), TrialCount::parse("fixed:k=1")};
    for (const double factor : {0.5, 1.0, 2.0}) {
        const double mean = std::max(1.0, count.mean * factor);
        for (const TrialCount& family : families) {
            const TrialCount k = with_mean(family, mean);
            json row{{"distribution", family_name(k)},
                     {"count", k.text()},
                     {"mean", k.mean},
                     {"p99_trials", k.quantile(0.99)}};
            try {
                const Solution s = solve(free, selection_cost(k), target, 1e-3, main.value);
                row["value"] = s.value;
                row["epsilon"] = s.epsilon;
            } catch (const ValidationError&) {
                row["value"] = nullptr;  // unreachable in the bracket
            }
            table.push_back(row);
        }
    }

    if (common.json) {
        print_json(json{{"accountant", accountant_name},
                        {"target", {{"epsilon", target.epsilon}, {"delta", target.delta}}},
                        {"free", free.key},
                        {"value", main.value},
                        {"epsilon", main.epsilon},
                        {"one_trial_epsilon", one_trial},
                        {"count", count.text()},
                        {"describes", count.describe()},
                        {"expected_trials", count.mean},
                        {"p99_trials", p99},
                        {"trade_off", table}});
        return kSuccess;
    }
    std::cout << fmt::format(
        "{} = {:.17g}: the best of K trials, {}, is ({:.6g}, {:g})-DP ({} accountant); target "
        "epsilon {:g}\n",
        free.key, main.value, count.describe(), main.epsilon, target.delta, accountant_name, target.epsilon);
    std::cout << fmt::format("  compute: E[K] = {:g} trials, 99th percentile K = {}; one trial alone: epsilon {:.6g}\n",
                             count.mean, p99, one_trial);
    std::cout << fmt::format("\n| distribution | E[K] | 99th pct K | {} | epsilon reached |\n|---|---|---|---|---|\n",
                             free.key);
    for (const json& row : table) {
        const std::string value =
            row["value"].is_null() ? std::string("unreachable") : fmt::format("{:.6g}", row["value"].get<double>());
        const std::string eps =
            row["value"].is_null() ? std::string("-") : fmt::format("{:.4g}", row["epsilon"].get<double>());
        std::cout << fmt::format("| {} | {:g} | {} | {} | {} |\n", row["distribution"].get<std::string>(),
                                 row["mean"].get<double>(), row["p99_trials"].get<std::uint64_t>(), value, eps);
    }
    return kSuccess;
}

}  // namespace dpbo::cli
