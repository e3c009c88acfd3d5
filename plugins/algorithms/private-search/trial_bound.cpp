#include "trial_bound.hpp"

#include <string_view>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::private_search {

namespace {

std::string_view trimmed(std::string_view text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

}  // namespace

std::vector<PrivacyEvent> parse_trial_events(const std::string& text, const std::string& owner) {
    std::vector<PrivacyEvent> events;
    std::string_view rest = text;
    while (true) {
        const auto separator = rest.find(';');
        const std::string_view piece = trimmed(rest.substr(0, separator));
        if (piece.empty())
            throw ValidationError(
                fmt::format("{}: trial = '{}' has an empty event; allowed: event texts separated "
                            "by ';', e.g. 'laplace:scale=0.1,sensitivity=0.01'",
                            owner, text));
        try {
            events.push_back(parse_builtin_event(piece));
        } catch (const ValidationError& error) {
            throw ValidationError(fmt::format("{}: trial = '{}': {}", owner, text, error.what()));
        }
        if (separator == std::string_view::npos) break;
        rest.remove_prefix(separator + 1);
    }
    return events;
}

std::vector<PrivacyEvent> resolve_trial_bound(const PrivateTrials& trials, const std::optional<std::string>& user_text,
                                              const std::string& owner) {
    std::vector<PrivacyEvent> declared = trials.trial_bound();
    if (!user_text) {
        if (declared.empty())
            throw ValidationError(fmt::format(
                "{}: the objective declares no bound on its trials' events (it states them only with its answers); "
                "state one with --set algorithm.trial='EVENT; EVENT' (e.g. "
                "'subsampled-gaussian:q=0.01,sigma=1.1,steps=1000; laplace:scale=0.01,sensitivity=0.001'): "
                "the selection's cost is computed from it before the first trial",
                owner));
        return declared;
    }
    std::vector<PrivacyEvent> stated = parse_trial_events(*user_text, owner);
    if (!declared.empty() && !events_dominated_by(declared, stated))
        throw ValidationError(
            fmt::format("{}: trial = '{}' does not cover the objective's own trial bound '{}'; "
                        "allowed: a bound at least as costly as the objective's, or none",
                        owner, *user_text, trial_bound_text(declared)));
    return stated;
}

std::string trial_bound_text(const std::vector<PrivacyEvent>& bound) {
    std::string text;
    for (const auto& event : bound) text += (text.empty() ? "" : "; ") + event_text(event);
    return text;
}

}  // namespace dpbo::private_search
