#include "dpbo/host/manifest_json.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace dpbo {

using json = nlohmann::json;

namespace {

constexpr ParameterType kTypes[] = {ParameterType::Real, ParameterType::Integer, ParameterType::Boolean,
                                    ParameterType::Text, ParameterType::Choice,  ParameterType::RealList};

// JSON has no infinities; the unbounded ends of a range are common.
json real_to_json(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    return x;
}

double real_from_json(const json& value) {
    if (value.is_number()) return value.get<double>();
    const auto text = value.get<std::string>();
    if (text == "inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    throw std::invalid_argument(fmt::format("'{}' is not a real", text));
}

// An integer bound as the schema builder takes it: the builder stores bounds as doubles, so the
// ends of the int64 range (which round to ±2^63) map back to values that round the same way.
std::int64_t integer_bound(double x, std::int64_t unbounded) {
    if (std::isinf(x)) return unbounded;
    constexpr double kEdge = 9223372036854775808.0;  // 2^63
    if (x >= kEdge) return std::numeric_limits<std::int64_t>::max() - 1;
    if (x <= -kEdge) return std::numeric_limits<std::int64_t>::min() + 1;
    return static_cast<std::int64_t>(x);
}

json value_to_json(const ParameterValue& value) {
    return std::visit(
        [](const auto& v) -> json {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double>)
                return real_to_json(v);
            else if constexpr (std::is_same_v<T, std::vector<double>>) {
                json list = json::array();
                for (const double x : v) list.push_back(real_to_json(x));
                return list;
            } else
                return v;
        },
        value);
}

json spec_to_json(const ParameterSpec& spec) {
    json out{{"name", spec.name},
             {"type", std::string(to_string(spec.type))},
             {"required", spec.required},
             {"lower", real_to_json(spec.lower)},
             {"upper", real_to_json(spec.upper)},
             {"lower_inclusive", spec.lower_inclusive},
             {"upper_inclusive", spec.upper_inclusive},
             {"choices", spec.choices},
             {"unit", spec.unit},
             {"doc", spec.doc}};
    out["default"] = spec.default_value ? value_to_json(*spec.default_value) : json(nullptr);
    return out;
}

ParameterType type_from_json(const json& value) {
    const auto text = value.get<std::string>();
    for (const auto type : kTypes)
        if (to_string(type) == text) return type;
    throw std::invalid_argument(fmt::format("unknown parameter type '{}'", text));
}

// Rebuilt through the schema's own builders, so the result is a schema a plugin could have made.
void add_spec(ParameterSchema& schema, const json& spec) {
    const auto name = spec.at("name").get<std::string>();
    const json& fallback = spec.at("default");
    const auto doc = spec.at("doc").get<std::string>();
    switch (type_from_json(spec.at("type"))) {
        case ParameterType::Real: {
            RealOptions options{.lower = real_from_json(spec.at("lower")),
                                .upper = real_from_json(spec.at("upper")),
                                .lower_inclusive = spec.at("lower_inclusive").get<bool>(),
                                .upper_inclusive = spec.at("upper_inclusive").get<bool>(),
                                .required = spec.at("required").get<bool>(),
                                .unit = spec.at("unit").get<std::string>(),
                                .doc = doc};
            if (!fallback.is_null()) options.fallback = real_from_json(fallback);
            schema.real(name, std::move(options));
            return;
        }
        case ParameterType::Integer: {
            IntegerOptions options{
                .lower = integer_bound(real_from_json(spec.at("lower")), std::numeric_limits<std::int64_t>::min()),
                .upper = integer_bound(real_from_json(spec.at("upper")), std::numeric_limits<std::int64_t>::max()),
                .required = spec.at("required").get<bool>(),
                .unit = spec.at("unit").get<std::string>(),
                .doc = doc};
            if (!fallback.is_null()) options.fallback = fallback.get<std::int64_t>();
            schema.integer(name, std::move(options));
            return;
        }
        case ParameterType::Boolean:
            schema.boolean(name, fallback.get<bool>(), doc);
            return;
        case ParameterType::Text:
            schema.text(name, fallback.is_null() ? std::nullopt : std::optional(fallback.get<std::string>()), doc);
            return;
        case ParameterType::Choice:
            schema.choice(name, spec.at("choices").get<std::vector<std::string>>(), fallback.get<std::string>(), doc);
            return;
        case ParameterType::RealList: {
            std::optional<std::vector<double>> list;
            if (!fallback.is_null()) {
                list.emplace();
                for (const json& x : fallback) list->push_back(real_from_json(x));
            }
            schema.real_list(name, std::move(list), doc);
            return;
        }
    }
}

}  // namespace

json manifest_to_json(const Manifest& manifest) {
    json schema = json::array();
    for (const auto& spec : manifest.schema.specs()) schema.push_back(spec_to_json(spec));
    return {{"kind", std::string(to_string(manifest.kind))},
            {"name", manifest.name},
            {"version", manifest.version},
            {"summary", manifest.summary},
            {"reference", manifest.reference},
            {"schema", schema}};
}

Manifest manifest_from_json(const json& document) {
    Manifest manifest;
    const auto kind = module_kind_from_string(document.at("kind").get<std::string>());
    if (!kind) throw std::invalid_argument("unknown module kind");
    manifest.kind = *kind;
    manifest.name = document.at("name").get<std::string>();
    manifest.version = document.at("version").get<std::string>();
    manifest.summary = document.at("summary").get<std::string>();
    manifest.reference = document.at("reference").get<std::string>();
    for (const json& spec : document.at("schema")) add_spec(manifest.schema, spec);
    // Whatever the builders could not reproduce exactly was not written by manifest_to_json.
    if (manifest_to_json(manifest) != document) throw std::invalid_argument("the manifest does not round-trip");
    return manifest;
}

}  // namespace dpbo
