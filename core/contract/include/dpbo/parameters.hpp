#pragma once
// Declarative parameter schemas. Each module publishes one; the same list drives validation,
// `dpbo info` and the generated documentation, so what a user reads is what is enforced.
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dpbo {

enum class ParameterType { Real, Integer, Boolean, Text, Choice, RealList };

std::string_view to_string(ParameterType type);

using ParameterValue = std::variant<double, std::int64_t, bool, std::string, std::vector<double>>;

std::string format_value(const ParameterValue& value);

struct ParameterSpec {
    std::string name;
    ParameterType type = ParameterType::Real;
    // Absent default and required == false: an optional parameter the module checks with has().
    std::optional<ParameterValue> default_value;
    bool required = false;
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    bool lower_inclusive = true;
    bool upper_inclusive = true;
    std::vector<std::string> choices;  // for Choice
    std::string unit;
    std::string doc;

    // "(0, inf)", "[1, 100]", "one of: a, b", "any" — for messages and `dpbo info`.
    std::string allowed() const;
};

// Options for the builder methods below; designated initialisers keep schemas readable:
//   schema.real("mu", {.fallback = 1.0, .lower = 0, .lower_inclusive = false, .doc = "..."});
struct RealOptions {
    std::optional<double> fallback;
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    bool lower_inclusive = true;
    bool upper_inclusive = true;
    bool required = false;
    std::string unit;
    std::string doc;
};

struct IntegerOptions {
    std::optional<std::int64_t> fallback;
    std::int64_t lower = std::numeric_limits<std::int64_t>::min();
    std::int64_t upper = std::numeric_limits<std::int64_t>::max();
    bool required = false;
    std::string unit;
    std::string doc;
};

// A choice with no fallback is either required or optional (checked with has()).
struct ChoiceOptions {
    std::optional<std::string> fallback;
    bool required = false;
    std::string doc;
};

class ParameterSchema {
public:
    ParameterSchema& real(std::string name, RealOptions options);
    ParameterSchema& integer(std::string name, IntegerOptions options);
    ParameterSchema& boolean(std::string name, bool fallback, std::string doc);
    ParameterSchema& text(std::string name, std::optional<std::string> fallback, std::string doc);
    ParameterSchema& choice(std::string name, std::vector<std::string> choices, std::string fallback, std::string doc);
    ParameterSchema& choice(std::string name, std::vector<std::string> choices, ChoiceOptions options);
    // A comma-separated list of reals (a point, per-dimension bounds, ...).
    ParameterSchema& real_list(std::string name, std::optional<std::vector<double>> fallback, std::string doc);

    const std::vector<ParameterSpec>& specs() const { return specs_; }
    const ParameterSpec* find(std::string_view name) const;

private:
    ParameterSchema& add(ParameterSpec spec);
    std::vector<ParameterSpec> specs_;
};

// Validated values: every key is known, typed and in range. Getters name the module on misuse.
class ParameterSet {
public:
    ParameterSet() = default;
    ParameterSet(std::string owner, std::map<std::string, ParameterValue> values,
                 std::map<std::string, bool> given_by_user);

    bool has(std::string_view name) const;
    bool given_by_user(std::string_view name) const;
    double real(std::string_view name) const;
    std::int64_t integer(std::string_view name) const;
    bool boolean(std::string_view name) const;
    const std::string& text(std::string_view name) const;  // Text and Choice
    const std::vector<double>& real_list(std::string_view name) const;

    const std::map<std::string, ParameterValue>& values() const { return values_; }
    const std::string& owner() const { return owner_; }

private:
    const ParameterValue& at(std::string_view name) const;
    std::string owner_;
    std::map<std::string, ParameterValue> values_;
    std::map<std::string, bool> given_by_user_;
};

// Parses and checks raw "key=value" strings against a schema. `owner` names the module in every
// message ("objective 'rosenbrock'"). Throws ValidationError naming the key and what is allowed.
ParameterSet validate_parameters(const ParameterSchema& schema, const std::map<std::string, std::string>& raw,
                                 const std::string& owner);

// Levenshtein distance, used to suggest the closest known key or module name.
std::size_t edit_distance(std::string_view a, std::string_view b);
std::optional<std::string> closest_match(std::string_view wanted, const std::vector<std::string>& known);

}  // namespace dpbo
