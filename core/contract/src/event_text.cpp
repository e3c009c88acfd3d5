// Event texts: the one splitter of "KIND:key=value,...[xREPEATS]", the built-in kinds read from it,
// and the canonical text of an event (parse_builtin_event(event_text(e)) rebuilds e).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/event_kind.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

namespace {

// A repetition count after the final 'x': digits (and what a number may hold, so that "x0" and
// "x1.5" are refused by name rather than read as part of a value).
bool looks_like_count(std::string_view rest) {
    if (rest.empty()) return false;
    for (const char c : rest)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
            return false;
    return std::isdigit(static_cast<unsigned char>(rest.front())) != 0;
}

std::size_t parse_repetitions(std::string_view rest, std::string_view text) {
    const std::string copy(rest);
    char* end = nullptr;
    const double value = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !(value >= 1) || std::floor(value) != value || value > 1e15)
        throw ValidationError(
            fmt::format("event '{}': repetitions '{}' is not a whole number >= 1 (write xREPEATS last)", text, rest));
    return static_cast<std::size_t>(value);
}

// The positions of the separators at nesting depth 0 (outside parentheses).
std::vector<std::size_t> top_level(std::string_view body, char separator, std::string_view text) {
    std::vector<std::size_t> out;
    int depth = 0;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] == '(') ++depth;
        if (body[i] == ')' && --depth < 0) throw ValidationError(fmt::format("event '{}': a ')' closes no '('", text));
        if (depth == 0 && body[i] == separator) out.push_back(i);
    }
    if (depth != 0) throw ValidationError(fmt::format("event '{}': a '(' is never closed", text));
    return out;
}

std::string strip_parentheses(std::string value) {
    if (value.size() >= 2 && value.front() == '(' && value.back() == ')') return value.substr(1, value.size() - 2);
    return value;
}

// A value that would not survive the splitter as it stands is written in parentheses.
std::string value_text(const ParameterValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double>) {
                return event_number(v);
            } else if constexpr (std::is_same_v<T, std::int64_t>) {
                return std::to_string(v);
            } else if constexpr (std::is_same_v<T, bool>) {
                return v ? "true" : "false";
            } else if constexpr (std::is_same_v<T, std::string>) {
                return v.find_first_of(",;:()=") == std::string::npos ? v : "(" + v + ")";
            } else {
                std::vector<std::string> parts;
                for (const double x : v) parts.push_back(event_number(x));
                return fmt::format("({})", fmt::join(parts, ","));
            }
        },
        value);
}

// The checks a user reads first, in the words of the event syntax: unknown and missing keys, and a
// choice outside its options.
void check_keys(std::string_view text, const EventTextParts& event, const ParameterSchema& schema) {
    std::vector<std::string> keys;
    for (const ParameterSpec& spec : schema.specs()) keys.push_back(spec.name);
    for (const auto& [key, value] : event.values) {
        if (schema.find(key) == nullptr)
            throw ValidationError(fmt::format("event '{}': kind '{}' has no key '{}'; its keys: {}", text, event.kind,
                                              key, keys.empty() ? "none" : fmt::format("{}", fmt::join(keys, ", "))));
    }
    for (const ParameterSpec& spec : schema.specs()) {
        const auto given = event.values.find(spec.name);
        if (given == event.values.end()) {
            if (spec.required)
                throw ValidationError(fmt::format("event '{}': kind '{}' needs key '{}'", text, event.kind, spec.name));
            continue;
        }
        if (spec.type == ParameterType::Choice &&
            std::find(spec.choices.begin(), spec.choices.end(), given->second) == spec.choices.end())
            throw ValidationError(fmt::format("event '{}' key '{}': '{}' is not allowed; allowed: {}", text, spec.name,
                                              given->second, fmt::join(spec.choices, ", ")));
    }
}

}  // namespace

EventTextParts split_event_text(std::string_view text) {
    const auto colon = text.find(':');
    if (colon == std::string_view::npos || colon == 0)
        throw ValidationError(fmt::format("event '{}' is not of the form KIND:key=value,...[xREPEATS]", text));
    EventTextParts out;
    out.kind = std::string(text.substr(0, colon));
    std::string_view body = text.substr(colon + 1);
    // The repetitions: a final 'x' outside parentheses followed by a number only.
    {
        int depth = 0;
        std::size_t last_x = std::string_view::npos;
        for (std::size_t i = 0; i < body.size(); ++i) {
            if (body[i] == '(') ++depth;
            if (body[i] == ')') --depth;
            if (depth == 0 && body[i] == 'x') last_x = i;
        }
        if (last_x != std::string_view::npos && looks_like_count(body.substr(last_x + 1))) {
            out.repetitions = parse_repetitions(body.substr(last_x + 1), text);
            body = body.substr(0, last_x);
        }
    }
    if (body.empty()) return out;
    std::vector<std::size_t> commas = top_level(body, ',', text);
    commas.push_back(body.size());
    std::size_t start = 0;
    // Every comma separates two items, so "mu=1," has an empty second item, refused below.
    for (const std::size_t end : commas) {
        const std::string item(body.substr(start, end - start));
        if (item.empty())
            throw ValidationError(fmt::format("event '{}': item {} is empty (a stray comma?); expected key=value", text,
                                              out.values.size() + 1));
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0 || item.find('(') < eq)
            throw ValidationError(fmt::format("event '{}': '{}' is not key=value", text, item));
        if (!out.values.emplace(item.substr(0, eq), strip_parentheses(item.substr(eq + 1))).second)
            throw ValidationError(fmt::format("event '{}': key '{}' is given twice", text, item.substr(0, eq)));
        start = end + 1;
    }
    return out;
}

PrivacyEvent parse_builtin_event(std::string_view text) {
    const EventTextParts event = split_event_text(text);
    const EventKindEntry* builtin = find_builtin_event_kind(event.kind);
    if (!builtin) {
        std::vector<std::string> kinds;
        for (const EventKindEntry& kind : builtin_event_kinds()) kinds.push_back(kind.name);
        throw ValidationError(
            fmt::format("event '{}': unknown kind '{}'; built-in kinds: {}", text, event.kind, fmt::join(kinds, ", ")));
    }
    check_keys(text, event, builtin->schema);
    const ParameterSet parameters = validate_parameters(builtin->schema, event.values, fmt::format("event '{}'", text));
    std::shared_ptr<const EventDescription> description;
    try {
        description = builtin->build(parameters);
    } catch (const ValidationError& e) {
        throw ValidationError(fmt::format("event '{}': {}", text, e.what()));
    }
    PrivacyEvent out(std::move(description), event.repetitions);
    out.validate();
    return out;
}

std::string event_text(const PrivacyEvent& event) {
    std::vector<std::string> items;
    for (const auto& [key, value] : event.description().parameters())
        items.push_back(fmt::format("{}={}", key, value_text(value)));
    std::string out = fmt::format("{}:{}", event.kind(), fmt::join(items, ","));
    if (event.repetitions != 1) out += fmt::format("x{}", event.repetitions);
    return out;
}

}  // namespace dpbo
