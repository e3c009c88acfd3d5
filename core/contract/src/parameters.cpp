#include "dpbo/parameters.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"

namespace dpbo {

std::string_view to_string(ParameterType type) {
    switch (type) {
        case ParameterType::Real:
            return "real";
        case ParameterType::Integer:
            return "integer";
        case ParameterType::Boolean:
            return "boolean";
        case ParameterType::Text:
            return "text";
        case ParameterType::Choice:
            return "choice";
        case ParameterType::RealList:
            return "real list";
    }
    return "unknown";
}

std::string format_value(const ParameterValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double>)
                return fmt::format("{:g}", v);
            else if constexpr (std::is_same_v<T, bool>)
                return v ? "true" : "false";
            else if constexpr (std::is_same_v<T, std::string>)
                return v;
            else if constexpr (std::is_same_v<T, std::vector<double>>)
                return fmt::format("{:g}", fmt::join(v, ","));
            else
                return std::to_string(v);
        },
        value);
}

namespace {

std::string format_bound(double x) {
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    return fmt::format("{:g}", x);
}

}  // namespace

std::string ParameterSpec::allowed() const {
    switch (type) {
        case ParameterType::Boolean:
            return "true or false";
        case ParameterType::Text:
            return "any text";
        case ParameterType::Choice:
            return fmt::format("one of: {}", fmt::join(choices, ", "));
        case ParameterType::RealList:
            return "comma-separated reals";
        case ParameterType::Real:
        case ParameterType::Integer: {
            if (std::isinf(lower) && std::isinf(upper))
                return type == ParameterType::Integer ? "any integer" : "any real";
            return fmt::format("{} in {}{}, {}{}", type == ParameterType::Integer ? "an integer" : "a real",
                               lower_inclusive && !std::isinf(lower) ? "[" : "(", format_bound(lower),
                               format_bound(upper), upper_inclusive && !std::isinf(upper) ? "]" : ")");
        }
    }
    return "";
}

ParameterSchema& ParameterSchema::add(ParameterSpec spec) {
    if (find(spec.name) != nullptr)
        throw ValidationError(fmt::format("parameter schema declares '{}' twice", spec.name));
    specs_.push_back(std::move(spec));
    return *this;
}

ParameterSchema& ParameterSchema::real(std::string name, RealOptions o) {
    ParameterSpec spec{.name = std::move(name), .type = ParameterType::Real};
    if (o.fallback) spec.default_value = *o.fallback;
    spec.required = o.required;
    spec.lower = o.lower;
    spec.upper = o.upper;
    spec.lower_inclusive = o.lower_inclusive;
    spec.upper_inclusive = o.upper_inclusive;
    spec.unit = std::move(o.unit);
    spec.doc = std::move(o.doc);
    return add(std::move(spec));
}

ParameterSchema& ParameterSchema::integer(std::string name, IntegerOptions o) {
    ParameterSpec spec{.name = std::move(name), .type = ParameterType::Integer};
    if (o.fallback) spec.default_value = *o.fallback;
    spec.required = o.required;
    spec.lower = o.lower == std::numeric_limits<std::int64_t>::min() ? -std::numeric_limits<double>::infinity()
                                                                     : static_cast<double>(o.lower);
    spec.upper = o.upper == std::numeric_limits<std::int64_t>::max() ? std::numeric_limits<double>::infinity()
                                                                     : static_cast<double>(o.upper);
    spec.unit = std::move(o.unit);
    spec.doc = std::move(o.doc);
    return add(std::move(spec));
}

ParameterSchema& ParameterSchema::boolean(std::string name, bool fallback, std::string doc) {
    return add(
        {.name = std::move(name), .type = ParameterType::Boolean, .default_value = fallback, .doc = std::move(doc)});
}

ParameterSchema& ParameterSchema::text(std::string name, std::optional<std::string> fallback, std::string doc) {
    ParameterSpec spec{.name = std::move(name), .type = ParameterType::Text, .doc = std::move(doc)};
    if (fallback) spec.default_value = *fallback;
    return add(std::move(spec));
}

ParameterSchema& ParameterSchema::choice(std::string name, std::vector<std::string> choices, std::string fallback,
                                         std::string doc) {
    if (std::find(choices.begin(), choices.end(), fallback) == choices.end())
        throw ValidationError(
            fmt::format("parameter schema: default '{}' of '{}' is not among its choices", fallback, name));
    return add({.name = std::move(name),
                .type = ParameterType::Choice,
                .default_value = std::move(fallback),
                .choices = std::move(choices),
                .doc = std::move(doc)});
}

ParameterSchema& ParameterSchema::choice(std::string name, std::vector<std::string> choices, ChoiceOptions o) {
    if (o.fallback) return choice(std::move(name), std::move(choices), *o.fallback, std::move(o.doc));
    return add({.name = std::move(name),
                .type = ParameterType::Choice,
                .required = o.required,
                .choices = std::move(choices),
                .doc = std::move(o.doc)});
}

ParameterSchema& ParameterSchema::real_list(std::string name, std::optional<std::vector<double>> fallback,
                                            std::string doc) {
    ParameterSpec spec{.name = std::move(name), .type = ParameterType::RealList, .doc = std::move(doc)};
    if (fallback) spec.default_value = *fallback;
    return add(std::move(spec));
}

const ParameterSpec* ParameterSchema::find(std::string_view name) const {
    for (const auto& spec : specs_)
        if (spec.name == name) return &spec;
    return nullptr;
}

ParameterSet::ParameterSet(std::string owner, std::map<std::string, ParameterValue> values,
                           std::map<std::string, bool> given_by_user)
    : owner_(std::move(owner)), values_(std::move(values)), given_by_user_(std::move(given_by_user)) {}

bool ParameterSet::has(std::string_view name) const { return values_.find(std::string(name)) != values_.end(); }

bool ParameterSet::given_by_user(std::string_view name) const {
    const auto it = given_by_user_.find(std::string(name));
    return it != given_by_user_.end() && it->second;
}

const ParameterValue& ParameterSet::at(std::string_view name) const {
    const auto it = values_.find(std::string(name));
    if (it == values_.end())
        throw ValidationError(fmt::format("{}: parameter '{}' has no value (it is optional and was not given)",
                                          owner_.empty() ? "module" : owner_, name));
    return it->second;
}

namespace {
template <class T>
const T& typed(const ParameterValue& value, const std::string& owner, std::string_view name, std::string_view wanted) {
    if (const auto* v = std::get_if<T>(&value)) return *v;
    throw RunError(
        fmt::format("{}: parameter '{}' read as {} but declared otherwise (a bug in the module)", owner, name, wanted));
}
}  // namespace

double ParameterSet::real(std::string_view name) const {
    const auto& value = at(name);
    if (const auto* i = std::get_if<std::int64_t>(&value)) return static_cast<double>(*i);
    return typed<double>(value, owner_, name, "real");
}
std::int64_t ParameterSet::integer(std::string_view name) const {
    return typed<std::int64_t>(at(name), owner_, name, "integer");
}
bool ParameterSet::boolean(std::string_view name) const { return typed<bool>(at(name), owner_, name, "boolean"); }
const std::string& ParameterSet::text(std::string_view name) const {
    return typed<std::string>(at(name), owner_, name, "text");
}
const std::vector<double>& ParameterSet::real_list(std::string_view name) const {
    return typed<std::vector<double>>(at(name), owner_, name, "real list");
}

namespace {

std::string trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t");
    return std::string(s.substr(first, last - first + 1));
}

std::optional<double> parse_real(std::string_view text) {
    const std::string t = trim(text);
    if (t.empty()) return std::nullopt;
    double value = 0.0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (end != t.data() + t.size()) return std::nullopt;
    // A number below the smallest denormal is a number: it rounds to zero (strtod's result).
    // from_chars does not accept "inf"/"nan" spellings with a sign; those are refused anyway.
    if (ec == std::errc::result_out_of_range) return std::strtod(t.c_str(), nullptr);
    if (ec != std::errc()) return std::nullopt;
    return value;
}

std::optional<std::int64_t> parse_integer(std::string_view text) {
    const std::string t = trim(text);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (!t.empty() && ec == std::errc() && end == t.data() + t.size()) return value;
    // Accept integral reals written as "1e3" for convenience; refuse 2.5.
    if (const auto real = parse_real(t);
        real && std::isfinite(*real) && std::floor(*real) == *real && std::fabs(*real) < 9.0e15)
        return static_cast<std::int64_t>(*real);
    return std::nullopt;
}

bool in_range(const ParameterSpec& spec, double v) {
    const bool above = spec.lower_inclusive ? v >= spec.lower : v > spec.lower;
    const bool below = spec.upper_inclusive ? v <= spec.upper : v < spec.upper;
    return above && below;
}

ParameterValue parse_value(const ParameterSpec& spec, const std::string& raw, const std::string& owner) {
    const auto refuse = [&](std::string_view why) {
        return ValidationError(fmt::format("{}: parameter '{}' = '{}' {}; expected {}{}", owner, spec.name, raw, why,
                                           spec.allowed(), spec.unit.empty() ? "" : " (unit: " + spec.unit + ")"));
    };
    switch (spec.type) {
        case ParameterType::Real: {
            const auto v = parse_real(raw);
            if (!v) throw refuse("is not a number");
            if (!std::isfinite(*v)) throw refuse("is not finite");
            if (!in_range(spec, *v)) throw refuse("is out of range");
            return *v;
        }
        case ParameterType::Integer: {
            const auto v = parse_integer(raw);
            if (!v) throw refuse("is not an integer");
            if (!in_range(spec, static_cast<double>(*v))) throw refuse("is out of range");
            return *v;
        }
        case ParameterType::Boolean: {
            const std::string t = trim(raw);
            if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
            if (t == "false" || t == "0" || t == "no" || t == "off") return false;
            throw refuse("is not a boolean");
        }
        case ParameterType::Text:
            return raw;
        case ParameterType::Choice: {
            const std::string t = trim(raw);
            if (std::find(spec.choices.begin(), spec.choices.end(), t) == spec.choices.end()) {
                const auto near = closest_match(t, spec.choices);
                throw refuse(near ? fmt::format("is not a choice (did you mean '{}'?)", *near) : "is not a choice");
            }
            return t;
        }
        case ParameterType::RealList: {
            // Every comma separates two entries: "1,2," has an empty third entry, not two entries.
            if (trim(raw).empty()) throw refuse("is empty");
            std::vector<double> values;
            std::size_t start = 0;
            while (true) {
                const std::size_t comma = std::min(raw.find(',', start), raw.size());
                const std::string item = trim(std::string_view(raw).substr(start, comma - start));
                if (item.empty()) throw refuse(fmt::format("has an empty entry {}", values.size() + 1));
                const auto v = parse_real(item);
                if (!v || !std::isfinite(*v))
                    throw refuse(
                        fmt::format("has entry '{}' (entry {}) that is not a finite number", item, values.size() + 1));
                values.push_back(*v);
                if (comma == raw.size()) break;
                start = comma + 1;
            }
            return values;
        }
    }
    throw refuse("has an unknown type");
}

}  // namespace

ParameterSet validate_parameters(const ParameterSchema& schema, const std::map<std::string, std::string>& raw,
                                 const std::string& owner) {
    std::vector<std::string> known;
    for (const auto& spec : schema.specs()) known.push_back(spec.name);

    for (const auto& [key, value] : raw) {
        if (schema.find(key) != nullptr) continue;
        if (known.empty())
            throw ValidationError(fmt::format("{}: unknown parameter '{}'; it takes no parameters", owner, key));
        const auto near = closest_match(key, known);
        throw ValidationError(fmt::format("{}: unknown parameter '{}'{}; known parameters: {}", owner, key,
                                          near ? fmt::format(" (did you mean '{}'?)", *near) : "",
                                          fmt::join(known, ", ")));
    }

    std::map<std::string, ParameterValue> values;
    std::map<std::string, bool> given;
    for (const auto& spec : schema.specs()) {
        if (const auto it = raw.find(spec.name); it != raw.end()) {
            values.emplace(spec.name, parse_value(spec, it->second, owner));
            given[spec.name] = true;
        } else if (spec.default_value) {
            values.emplace(spec.name, *spec.default_value);
            given[spec.name] = false;
        } else if (spec.required) {
            throw ValidationError(fmt::format("{}: required parameter '{}' is missing; expected {} ({})", owner,
                                              spec.name, spec.allowed(), spec.doc));
        }
    }
    return ParameterSet(owner, std::move(values), std::move(given));
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
        }
        std::swap(previous, current);
    }
    return previous[b.size()];
}

std::optional<std::string> closest_match(std::string_view wanted, const std::vector<std::string>& known) {
    std::optional<std::string> best;
    std::size_t best_distance = std::numeric_limits<std::size_t>::max();
    for (const auto& candidate : known) {
        const std::size_t d = edit_distance(wanted, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    // A suggestion further away than half the word is noise, not help.
    if (!best || best_distance > std::max<std::size_t>(2, wanted.size() / 2)) return std::nullopt;
    return best;
}

}  // namespace dpbo
