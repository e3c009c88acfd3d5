// dpbo info NAME: what a module is, what it implements, and every parameter it takes.
#include <iostream>

#include <fmt/format.h>

#include "cli.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/job_modules.hpp"
#include "dpbo/objective.hpp"

namespace dpbo::cli {

namespace {

json spec_json(const ParameterSpec& spec) {
    json out{{"name", spec.name}, {"type", to_string(spec.type)}, {"allowed", spec.allowed()}};
    out["default"] = spec.default_value ? json(format_value(*spec.default_value)) : json(nullptr);
    out["required"] = spec.required;
    if (!spec.choices.empty()) out["choices"] = spec.choices;
    out["unit"] = spec.unit;
    out["doc"] = spec.doc;
    return out;
}

// The roles an algorithm takes, read from an instance made with default parameters (an algorithm with
// required parameters cannot be made that way; its roles go unlisted, and the listing says why).
std::vector<Role> algorithm_roles(PluginRegistry& registry, const LoadedPlugin& plugin, std::string& unlisted) {
    if (plugin.manifest.kind != ModuleKind::Algorithm) return {};
    try {
        auto roles = registry.create_as<Algorithm>(plugin.manifest.name)->roles();
        check_declared_roles(plugin.manifest.name, roles);
        return roles;
    } catch (const std::exception& e) {
        unlisted = e.what();
        return {};
    }
}

// The constants an objective declares (the DeclaredConstants capability), read from an instance made
// with default parameters; one that cannot be made so leaves them unlisted, and the listing says why.
// Only with --constants: describing a module otherwise runs none of its code (its manifest is cached).
std::vector<DeclaredConstant> objective_constants(PluginRegistry& registry, const LoadedPlugin& plugin,
                                                  std::string& unlisted) {
    if (plugin.manifest.kind != ModuleKind::Objective) return {};
    try {
        return declared_constants(*registry.create_as<Objective>(plugin.manifest.name));
    } catch (const std::exception& e) {
        unlisted = e.what();
        return {};
    }
}

}  // namespace

int command_info(const std::vector<std::string>& arguments) {
    CommonOptions common;
    std::string name;
    bool list_constants = false;
    po::options_description options("options");
    options.add_options()("name", po::value(&name), "the module to describe")(
        "constants", po::bool_switch(&list_constants),
        "objectives: also list the constants the objective declares (Lipschitz constant, loss bound, ...), by "
        "building it with its default parameters");
    options.add(common_options(common));
    po::positional_options_description positional;
    positional.add("name", 1);
    parse_command(arguments, options, &positional);
    if (common.help) {
        print_help("dpbo info NAME [--constants] [--json] [--plugin-path DIR]", options,
                   "Describes module NAME: its kind, the paper it implements, its parameters and, for an algorithm, "
                   "its roles.");
        return kSuccess;
    }
    if (name.empty()) throw ValidationError("info needs a module name: dpbo info NAME (see 'dpbo list')");

    PluginRegistry registry;
    load_plugins_on_demand(registry, common);
    const LoadedPlugin& plugin = registry.require_any(name);
    const Manifest& m = plugin.manifest;
    std::string unlisted;
    const auto roles = algorithm_roles(registry, plugin, unlisted);
    std::string constants_unlisted;
    const auto constants =
        list_constants ? objective_constants(registry, plugin, constants_unlisted) : std::vector<DeclaredConstant>{};
    if (list_constants && m.kind != ModuleKind::Objective)
        throw ValidationError(
            fmt::format("--constants applies to objectives; '{}' is a {}", m.name, to_string(m.kind)));

    if (common.json) {
        json parameters = json::array();
        for (const auto& spec : m.schema.specs()) parameters.push_back(spec_json(spec));
        json roles_json = json::array();
        for (const auto& r : roles)
            roles_json.push_back({{"name", r.name},
                                  {"kind", to_string(r.kind)},
                                  {"required", r.required},
                                  {"default", r.default_module},
                                  {"default_parameters", r.default_parameters},
                                  {"doc", r.doc}});
        json constants_json = json::array();
        for (const auto& c : constants)
            constants_json.push_back({{"name", c.name}, {"value", c.value}, {"doc", c.doc}});
        print_json({{"name", m.name},
                    {"kind", to_string(m.kind)},
                    {"version", m.version},
                    {"summary", m.summary},
                    {"reference", m.reference},
                    {"file", plugin.path.string()},
                    {"compiler", plugin.compiler},
                    {"parameters", parameters},
                    {"roles", roles_json},
                    {"declared_constants", list_constants ? constants_json : json(nullptr)}});
        return kSuccess;
    }

    std::cout << fmt::format("{} ({} {})\n  {}\n  implements: {}\n  file: {}\n", m.name, to_string(m.kind), m.version,
                             m.summary, m.reference, plugin.path.string());
    if (!roles.empty()) {
        std::cout << "roles (name a module with --ROLE MODULE, set its parameters with --set ROLE.KEY=VALUE):\n";
        for (const auto& r : roles) {
            std::string defaults;
            for (const auto& [key, value] : r.default_parameters)
                defaults += fmt::format("{}{}={}", defaults.empty() ? " with " : ", ", key, value);
            std::cout << fmt::format(
                "  --{:<14} {} {}{}{}: {}\n", r.name, r.required ? "required" : "optional", to_string(r.kind),
                r.default_module.empty() ? "" : fmt::format(", default '{}'", r.default_module), defaults, r.doc);
        }
    } else if (!unlisted.empty()) {
        std::cout << fmt::format("roles: not listed ({})\n", unlisted);
    }
    if (!constants.empty()) {
        std::cout << "declared constants (with default parameters; public, data-independent):\n";
        for (const auto& c : constants) std::cout << fmt::format("  {:<20} {:<12g} {}\n", c.name, c.value, c.doc);
    } else if (!constants_unlisted.empty()) {
        std::cout << fmt::format("declared constants: not listed ({})\n", constants_unlisted);
    } else if (list_constants) {
        std::cout << "declared constants: none\n";
    }
    if (m.schema.specs().empty()) {
        std::cout << "parameters: none\n";
        return kSuccess;
    }
    std::cout << fmt::format("parameters (set with --set {}.KEY=VALUE):\n", to_string(m.kind));
    for (const auto& spec : m.schema.specs()) {
        const std::string fallback = spec.default_value ? format_value(*spec.default_value)
                                                        : (spec.required ? "required" : "optional, no default");
        std::cout << fmt::format("  {:<20} {:<10} default {}\n  {:<20} {:<10} allowed: {}{}\n  {:<20} {:<10} {}\n",
                                 spec.name, to_string(spec.type), fallback, "", "", spec.allowed(),
                                 spec.unit.empty() ? "" : fmt::format("; unit: {}", spec.unit), "", "", spec.doc);
    }
    return kSuccess;
}

}  // namespace dpbo::cli
