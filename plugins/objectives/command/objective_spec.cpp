#include "objective_spec.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::command_objective {

namespace {

double number(const nlohmann::json& value, const std::string& where, const std::string& field) {
    if (!value.is_number())
        throw dpbo::ValidationError(fmt::format("{}: {} is {}; expected a number", where, field, value.dump()));
    return value.get<double>();
}

std::string text(const nlohmann::json& object, const char* key, const std::string& fallback, const std::string& where,
                 const std::string& field) {
    if (!object.contains(key)) return fallback;
    if (!object[key].is_string())
        throw dpbo::ValidationError(
            fmt::format("{}: {}.{} is {}; expected a string", where, field, key, object[key].dump()));
    return object[key].get<std::string>();
}

TrialDeclaration parse_trials(const nlohmann::json& trials, const std::string& where) {
    if (!trials.is_object())
        throw dpbo::ValidationError(
            fmt::format("{}: \"trials\" is {}; expected {{\"neighbouring\": \"...\", \"protected\": \"...\", "
                        "\"bound\": [\"EVENT\", ...]}}",
                        where, trials.dump()));
    for (const auto& [key, value] : trials.items())
        if (key != "neighbouring" && key != "protected" && key != "bound")
            throw dpbo::ValidationError(fmt::format(
                "{}: trials.{} is not a key of the trials declaration; allowed: neighbouring, protected, bound", where,
                key));
    TrialDeclaration out;
    out.neighbouring = text(trials, "neighbouring", "", where, "trials");
    out.protected_unit = text(trials, "protected", "", where, "trials");
    if (out.neighbouring.empty() || out.protected_unit.empty())
        throw dpbo::ValidationError(
            fmt::format("{}: trials needs \"neighbouring\" (e.g. \"add or remove one record\") and \"protected\" "
                        "(e.g. \"one training row\"), both non-empty: what one trial's guarantee protects",
                        where));
    if (trials.contains("bound")) out.bound = parse_events(trials["bound"], fmt::format("{}: trials.bound", where));
    return out;
}

}  // namespace

std::vector<dpbo::PrivacyEvent> parse_events(const nlohmann::json& texts, const std::string& where) {
    if (!texts.is_array() || texts.empty())
        throw dpbo::ValidationError(fmt::format(
            "{} is {}; expected a non-empty list of event texts such as [\"subsampled-gaussian:q=0.01,sigma=1.1,"
            "steps=100\", \"laplace:scale=0.01,sensitivity=0.001\"]",
            where, texts.dump().substr(0, 200)));
    std::vector<dpbo::PrivacyEvent> events;
    for (std::size_t e = 0; e < texts.size(); ++e) {
        if (!texts[e].is_string())
            throw dpbo::ValidationError(
                fmt::format("{}[{}] is {}; expected an event text (KIND:key=value,...)", where, e, texts[e].dump()));
        try {
            events.push_back(dpbo::parse_builtin_event(texts[e].get<std::string>()));
        } catch (const dpbo::ValidationError& error) {
            throw dpbo::ValidationError(
                fmt::format("{}[{}] = \"{}\": {}", where, e, texts[e].get<std::string>(), error.what()));
        }
    }
    return events;
}

ObjectiveSpec parse_spec(const nlohmann::json& spec, const std::string& where) {
    if (!spec.is_object() || spec.value("protocol", "") != "dpbo-objective")
        throw dpbo::ValidationError(
            fmt::format("{}: expected {{\"protocol\":\"dpbo-objective\",\"version\":1,"
                        "\"space\":[...], ...}}, got {}",
                        where, spec.dump().substr(0, 200)));
    if (spec.value("version", 0) != 1)
        throw dpbo::ValidationError(
            fmt::format("{}: version {} of the protocol; this dpbo speaks version 1", where, spec.value("version", 0)));
    if (!spec.contains("space") || !spec["space"].is_array() || spec["space"].empty())
        throw dpbo::ValidationError(fmt::format("{}: \"space\" must be a non-empty list of dimensions", where));
    std::vector<dpbo::Dimension> dimensions;
    for (std::size_t j = 0; j < spec["space"].size(); ++j) {
        const auto& d = spec["space"][j];
        const std::string field = fmt::format("space[{}]", j);
        if (!d.is_object() || !d.contains("lower") || !d.contains("upper"))
            throw dpbo::ValidationError(
                fmt::format("{}: {} is {}; expected {{\"name\", \"lower\", \"upper\"}}", where, field, d.dump()));
        dpbo::Dimension dimension;
        dimension.name = text(d, "name", fmt::format("x{}", j), where, field);
        dimension.lower = number(d["lower"], where, field + ".lower");
        dimension.upper = number(d["upper"], where, field + ".upper");
        const std::string scale = text(d, "scale", "linear", where, field);
        if (scale != "linear" && scale != "log")
            throw dpbo::ValidationError(
                fmt::format("{}: {}.scale is '{}'; expected \"linear\" or \"log\"", where, field, scale));
        dimension.scale = scale == "log" ? dpbo::Scale::Log : dpbo::Scale::Linear;
        if (d.contains("integer") && !d["integer"].is_boolean())
            throw dpbo::ValidationError(fmt::format("{}: {}.integer must be true or false", where, field));
        dimension.integer = d.value("integer", false);
        dimensions.push_back(dimension);
    }
    ObjectiveSpec out;
    try {
        out.space = dpbo::SearchSpace::box(std::move(dimensions));
    } catch (const dpbo::ValidationError& e) {
        throw dpbo::ValidationError(fmt::format("{}: {}", where, e.what()));
    }
    if (spec.contains("outputs")) {
        if (!spec["outputs"].is_array() || spec["outputs"].empty())
            throw dpbo::ValidationError(fmt::format("{}: \"outputs\" must be a non-empty list", where));
        for (std::size_t k = 0; k < spec["outputs"].size(); ++k) {
            const auto& o = spec["outputs"][k];
            const std::string field = fmt::format("outputs[{}]", k);
            if (!o.is_object())
                throw dpbo::ValidationError(
                    fmt::format("{}: {} is {}; expected {{\"name\", \"sense\"}}", where, field, o.dump()));
            const std::string sense = text(o, "sense", "minimise", where, field);
            if (sense != "minimise" && sense != "maximise")
                throw dpbo::ValidationError(
                    fmt::format("{}: {}.sense is '{}'; expected \"minimise\" or \"maximise\"", where, field, sense));
            out.outputs.push_back({text(o, "name", fmt::format("output{}", k), where, field),
                                   sense == "maximise" ? dpbo::Sense::Maximise : dpbo::Sense::Minimise});
        }
    } else {
        out.outputs.push_back({"value", dpbo::Sense::Minimise});
    }
    if (spec.contains("trials")) out.trials = parse_trials(spec["trials"], where);
    if (spec.contains("records")) {
        if (!spec["records"].is_number_unsigned())
            throw dpbo::ValidationError(
                fmt::format("{}: \"records\" is {}; expected a whole number", where, spec["records"].dump()));
        out.records = spec["records"].get<std::size_t>();
    }
    return out;
}

}  // namespace dpbo::command_objective
