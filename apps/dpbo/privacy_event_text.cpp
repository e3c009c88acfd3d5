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

// The checks a user reads first, in the words of the event syntax (the schema's own messages speak
// of module parameters): unknown and missing keys, and a choice outside its options.
void check_keys(const std::string& text, const EventTextParts& event, const ParameterSchema& schema) {
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

std::vector<std::string> known_kinds(PluginRegistry& registry) {
    std::vector<std::string> kinds;
    for (const EventKindEntry& kind : builtin_event_kinds()) kinds.push_back(kind.name);
    for (const LoadedPlugin& plugin : registry.plugins())
        if (plugin.manifest.kind == ModuleKind::Event) kinds.push_back(plugin.manifest.name);
    return kinds;
}

// A plugin's event: its module is created with the parameters (validated by the registry against
// the same schema) and asked for the event, under the module call guard.
std::shared_ptr<const EventDescription> plugin_event(const std::string& text, const EventTextParts& event,
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
    // The built-in kinds are read by the library's own parser (privacy_event.hpp); the same splitter
    // reads a plugin kind's text here.
    const EventTextParts event = split_event_text(text);
    if (find_builtin_event_kind(event.kind)) return parse_builtin_event(text);
    const LoadedPlugin* plugin = registry.find(ModuleKind::Event, event.kind);
    if (!plugin)
        throw ValidationError(fmt::format("--event '{}': unknown kind '{}'; allowed kinds: {}", text, event.kind,
                                          fmt::join(known_kinds(registry), ", ")));
    check_keys(text, event, plugin->manifest.schema);
    validate_parameters(plugin->manifest.schema, event.values, fmt::format("--event '{}'", text));
    PrivacyEvent out(plugin_event(text, event, registry), event.repetitions);
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
