// INTERIM, weak definitions of event_text, parse_builtin_event and event(s)_dominated_by (declared in
// dpbo/privacy_event.hpp), so that trials can be journaled, declared by the command protocol and
// checked against a selection's bound on this branch before the contract's own implementation
// lands. The symbols are weak: the strong definitions of that implementation replace these at link
// time, and this file is then to be deleted.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "dpbo/event_kind.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

namespace {

std::string value_text(const ParameterValue& value) {
    if (const double* number = std::get_if<double>(&value)) return event_number(*number);
    return format_value(value);
}

// Which way a numeric parameter makes an event cheaper: +1 larger is cheaper (more noise), −1
// smaller is cheaper; parameters not listed must be equal.
int cheaper_direction(std::string_view kind, const std::string& key) {
    static const std::map<std::string, int, std::less<>> directions = {
        {"gaussian/sigma", +1},
        {"gaussian/sensitivity", -1},
        {"gdp/mu", -1},
        {"laplace/scale", +1},
        {"laplace/sensitivity", -1},
        {"exponential/epsilon", -1},
        {"exponential/quality_sensitivity", 0},
        {"subsampled-gaussian/sampling_rate", -1},
        {"subsampled-gaussian/noise_multiplier", +1},
        {"subsampled-gaussian/steps", -1},
        {"pure/epsilon", -1},
        {"approx/epsilon", -1},
        {"approx/delta", -1},
    };
    const auto it = directions.find(fmt::format("{}/{}", kind, key));
    return it == directions.end() ? 0 : it->second;
}

double as_number(const ParameterValue& value) {
    if (const double* d = std::get_if<double>(&value)) return *d;
    return static_cast<double>(std::get<std::int64_t>(value));
}

}  // namespace

[[gnu::weak]] std::string event_text(const PrivacyEvent& event) {
    std::vector<std::string> items;
    for (const auto& [key, value] : event.description().parameters())
        items.push_back(fmt::format("{}={}", key, value_text(value)));
    std::string text = fmt::format("{}:{}", event.kind(), fmt::join(items, ","));
    if (event.repetitions != 1) text += fmt::format("x{}", event.repetitions);
    return text;
}

[[gnu::weak]] PrivacyEvent parse_builtin_event(std::string_view text_view) {
    const std::string text(text_view);
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0)
        throw ValidationError(fmt::format("event '{}' is not of the form KIND:key=value,...[xREPEATS]", text));
    const std::string kind = text.substr(0, colon);
    const EventKindEntry* entry = find_builtin_event_kind(kind);
    if (entry == nullptr) {
        std::vector<std::string> kinds;
        for (const EventKindEntry& known : builtin_event_kinds()) kinds.push_back(known.name);
        throw ValidationError(
            fmt::format("event '{}': unknown kind '{}'; allowed kinds: {}", text, kind, fmt::join(kinds, ", ")));
    }
    std::string body = text.substr(colon + 1);
    std::size_t repetitions = 1;
    if (const auto x = body.rfind('x'); x != std::string::npos && body.find('=', x) == std::string::npos) {
        const std::string count = body.substr(x + 1);
        std::size_t used = 0;
        unsigned long long parsed = 0;
        try {
            parsed = std::stoull(count, &used);
        } catch (const std::exception&) {
            used = 0;
        }
        if (count.empty() || used != count.size() || parsed == 0)
            throw ValidationError(fmt::format("event '{}': repetitions '{}' is not a whole number >= 1", text, count));
        repetitions = static_cast<std::size_t>(parsed);
        body = body.substr(0, x);
    }
    std::map<std::string, std::string> values;
    std::size_t start = 0;
    while (!body.empty()) {
        const std::size_t end = std::min(body.find(',', start), body.size());
        const std::string item = body.substr(start, end - start);
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw ValidationError(fmt::format("event '{}': '{}' is not key=value", text, item));
        if (!values.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
            throw ValidationError(fmt::format("event '{}': key '{}' is given twice", text, item.substr(0, eq)));
        if (end == body.size()) break;
        start = end + 1;
    }
    for (const auto& [key, value] : values)
        if (entry->schema.find(key) == nullptr)
            throw ValidationError(fmt::format("event '{}': kind '{}' has no key '{}'", text, kind, key));
    try {
        PrivacyEvent event(entry->build(validate_parameters(entry->schema, values, fmt::format("event '{}'", text))),
                           repetitions);
        event.validate();
        return event;
    } catch (const ValidationError& e) {
        throw ValidationError(fmt::format("event '{}': {}", text, e.what()));
    }
}

[[gnu::weak]] bool event_dominated_by(const PrivacyEvent& trial, const PrivacyEvent& bound) {
    if (trial.kind() != bound.kind() || trial.repetitions > bound.repetitions) return false;
    const auto mine = trial.description().parameters();
    const auto theirs = bound.description().parameters();
    if (mine.size() != theirs.size()) return false;
    const bool builtin = find_builtin_event_kind(trial.kind()) != nullptr;
    for (const auto& [key, value] : mine) {
        const auto other = theirs.find(key);
        if (other == theirs.end()) return false;
        const int direction = builtin ? cheaper_direction(trial.kind(), key) : 0;
        const bool numeric = !std::holds_alternative<std::string>(value) && !std::holds_alternative<bool>(value) &&
                             !std::holds_alternative<std::vector<double>>(value);
        if (direction == 0 || !numeric) {
            if (value != other->second) return false;
            continue;
        }
        const double a = as_number(value), b = as_number(other->second);
        if (direction > 0 ? a < b : a > b) return false;
    }
    return true;
}

[[gnu::weak]] bool events_dominated_by(const std::vector<PrivacyEvent>& trial, const std::vector<PrivacyEvent>& bound) {
    if (trial.size() != bound.size()) return false;
    for (std::size_t i = 0; i < trial.size(); ++i)
        if (!event_dominated_by(trial[i], bound[i])) return false;
    return true;
}

}  // namespace dpbo
