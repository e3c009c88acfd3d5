#include "privacy_event_text.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/event_kind.hpp"
#include "dpbo/module_call_guard.hpp"
#include "job_options.hpp"

namespace dpbo::cli {

namespace {

std::size_t parse_count(const std::string& text, const std::string& where) {
    const double value = parse_finite_number(text, where);
    if (value < 1 || std::floor(value) != value || value > 1e15)
        throw ValidationError(fmt::format("{}: '{}' is not a whole number >= 1", where, text));
    return static_cast<std::size_t>(value);
}

// The text's parts: KIND, its key=value pairs, and the repetitions after a final 'x'.
struct EventText {
    std::string kind;
    std::map<std::string, std::string> values;
    std::size_t repetitions = 1;
};

EventText split(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0)
        throw ValidationError(fmt::format("--event '{}' is not of the form KIND:key=value,...[xREPEATS]", text));
    EventText out;
    out.kind = text.substr(0, colon);
    std::string body = text.substr(colon + 1);
    if (const auto x = body.rfind('x'); x != std::string::npos && body.find('=', x) == std::string::npos) {
        out.repetitions = parse_count(body.substr(x + 1), fmt::format("--event '{}' repetitions", text));
        body = body.substr(0, x);
    }
    std::size_t start = 0;
    // Every comma separates two items, so "mu=1," has an empty second item, refused below.
    while (!body.empty()) {
        const std::size_t end = std::min(body.find(',', start), body.size());
        const std::string item = body.substr(start, end - start);
        const auto eq = item.find('=');
        if (item.empty())
            throw ValidationError(fmt::format("--event '{}': item {} is empty (a stray comma?); expected key=value",
                                              text, out.values.size() + 1));
        if (eq == std::string::npos || eq == 0)
            throw ValidationError(fmt::format("--event '{}': '{}' is not key=value", text, item));
        if (!out.values.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
            throw ValidationError(fmt::format("--event '{}': key '{}' is given twice", text, item.substr(0, eq)));
        if (end == body.size()) break;
        start = end + 1;
    }
    return out;
}

// The checks a user reads first, in the words of the event syntax (the schema's own messages speak
// of module parameters): unknown and missing keys, and a choice outside its options.
void check_keys(const std::string& text, const EventText& event, const ParameterSchema& schema) {
    std::vector<std::string> keys;
    for (const ParameterSpec& spec : schema.specs()) keys.push_back(spec.name);
    for (const auto& [key, value] : event.values) {
        if (schema.find(key) == nullptr)
            throw ValidationError(fmt::format("--event '{}': kind '{}' has no key '{}'; its keys: {}", text, event.kind,
                                              key, keys.empty() ? "none" : fmt::format("{}", fmt::join(keys, ", "))));
    }
    for (const ParameterSpec& spec : schema.specs()) {
        const auto given = event.values.find(spec.name);
        if (given == event.values.end()) {
            if (spec.required)
                throw ValidationError(
                    fmt::format("--event '{}': kind '{}' needs key '{}'", text, event.kind, spec.name));
            continue;
        }
        if (spec.type == ParameterType::Choice &&
            std::find(spec.choices.begin(), spec.choices.end(), given->second) == spec.choices.end())
            throw ValidationError(fmt::format("--event '{}' key '{}': '{}' is not allowed; allowed: {}", text,
                                              spec.name, given->second, fmt::join(spec.choices, ", ")));
    }
}

std::vector<std::string> known_kinds(const PluginRegistry& registry) {
    std::vector<std::string> kinds;
    for (const EventKindEntry& kind : builtin_event_kinds()) kinds.push_back(kind.name);
    for (const LoadedPlugin& plugin : registry.plugins())
        if (plugin.manifest.kind == ModuleKind::Event) kinds.push_back(plugin.manifest.name);
    return kinds;
}

// A plugin's event: its module is created with the parameters (validated by the registry against
// the same schema) and asked for the event, under the module call guard.
std::shared_ptr<const EventDescription> plugin_event(const std::string& text, const EventText& event,
                                                     PluginRegistry& registry) {
    const auto module = registry.create_as<EventKind>(event.kind, event.values);
    const std::string who = module->describe_origin();
    auto description = call_into_module(who, "building its event", [&] { return module->event(); });
    if (!description) throw RunError(fmt::format("--event '{}': {} built no event (a null description)", text, who));
    if (description->kind() != event.kind)
        throw RunError(
            fmt::format("--event '{}': {} built an event of kind '{}'; an event module must be named as the "
                        "kind it builds",
                        text, who, description->kind()));
    return description;
}

}  // namespace

PrivacyEvent parse_privacy_event(const std::string& text, PluginRegistry& registry) {
    const EventText event = split(text);
    const EventKindEntry* builtin = find_builtin_event_kind(event.kind);
    const LoadedPlugin* plugin = builtin ? nullptr : registry.find(ModuleKind::Event, event.kind);
    if (!builtin && !plugin)
        throw ValidationError(fmt::format("--event '{}': unknown kind '{}'; allowed kinds: {}", text, event.kind,
                                          fmt::join(known_kinds(registry), ", ")));
    const ParameterSchema& schema = builtin ? builtin->schema : plugin->manifest.schema;
    check_keys(text, event, schema);
    const ParameterSet parameters = validate_parameters(schema, event.values, fmt::format("--event '{}'", text));
    std::shared_ptr<const EventDescription> description;
    if (builtin) {
        try {
            description = builtin->build(parameters);
        } catch (const ValidationError& e) {
            throw ValidationError(fmt::format("--event '{}': {}", text, e.what()));
        }
    } else {
        description = plugin_event(text, event, registry);
    }
    PrivacyEvent out(std::move(description), event.repetitions);
    out.validate();
    return out;
}

std::string describe_builtin_event_kinds() {
    std::vector<std::string> kinds;
    for (const EventKindEntry& kind : builtin_event_kinds()) {
        std::vector<std::string> keys;
        for (const ParameterSpec& spec : kind.schema.specs()) keys.push_back(spec.name);
        kinds.push_back(fmt::format("{} ({})", kind.name, fmt::join(keys, ", ")));
    }
    return fmt::format("{}", fmt::join(kinds, ", "));
}

}  // namespace dpbo::cli
