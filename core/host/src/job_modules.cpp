#include "dpbo/host/job_modules.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"

namespace dpbo {

namespace {

bool valid_role_name(const std::string& name) {
    if (name.empty() || !(name.front() >= 'a' && name.front() <= 'z')) return false;
    return std::all_of(name.begin(), name.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'; });
}

std::string role_list(const std::vector<Role>& roles) {
    std::string out;
    for (const auto& role : roles)
        out += fmt::format("{}{} ({}, {})", out.empty() ? "" : ", ", role.name, to_string(role.kind),
                           role.required ? "required" : "optional");
    return out.empty() ? "none" : out;
}

}  // namespace

const std::vector<std::string>& reserved_role_names() {
    static const std::vector<std::string> names = {"algorithm", "objective", "seed",        "repeat",
                                                   "out",       "config",    "set",         "budget",
                                                   "help",      "json",      "plugin-path", "neighbour"};
    return names;
}

void check_declared_roles(const std::string& algorithm, const std::vector<Role>& roles) {
    const auto& reserved = reserved_role_names();
    for (std::size_t i = 0; i < roles.size(); ++i) {
        const Role& role = roles[i];
        const auto refuse = [&](const std::string& why) {
            throw ValidationError(
                fmt::format("algorithm '{}' declares role {} '{}', which {}", algorithm, i + 1, role.name, why));
        };
        if (!valid_role_name(role.name))
            refuse("is not a role name (lower-case letters, digits, '_' or '-', starting with a letter)");
        if (std::find(reserved.begin(), reserved.end(), role.name) != reserved.end())
            refuse(fmt::format("is reserved for the host's own options ({})", fmt::join(reserved, ", ")));
        if (role.kind == ModuleKind::Objective || role.kind == ModuleKind::Algorithm)
            refuse(
                fmt::format("is of kind {}; a role takes a component (surrogate, acquisition, mechanism, "
                            "accountant, ...), the objective and the algorithm are the job's own",
                            to_string(role.kind)));
        for (std::size_t j = 0; j < i; ++j)
            if (roles[j].name == role.name) refuse(fmt::format("is declared twice (also role {})", j + 1));
    }
}

JobModules::JobModules(PluginRegistry& registry, const JobSpec& spec)
    : registry_(registry), algorithm_(spec.algorithm), objective_(spec.objective) {
    registry.require(ModuleKind::Algorithm, algorithm_.name);
    const LoadedPlugin& objective = registry.require(ModuleKind::Objective, objective_.name);
    objective_parameters_ = validate_parameters(objective.manifest.schema, objective_.parameters,
                                                fmt::format("objective '{}'", objective_.name));
    resolve_roles(spec);
    // Creating the components once validates what parameters alone cannot (one against another).
    // The objective validates itself when the caller creates it: building one may be costly
    // (gp-lengthscales factorises its records), so it is not built twice.
    create_components();
}

void JobModules::resolve_roles(const JobSpec& spec) {
    const auto algorithm = registry_.create_as<Algorithm>(algorithm_.name, algorithm_.parameters);
    declared_ =
        call_into_module(algorithm->describe_origin(), "declaring its roles", [&] { return algorithm->roles(); });
    check_declared_roles(algorithm_.name, declared_);
    add_run_accountant_role(spec);
    for (const auto& [name, given] : spec.roles) {
        const bool declared =
            std::any_of(declared_.begin(), declared_.end(), [&](const Role& r) { return r.name == name; });
        if (declared) continue;
        std::vector<std::string> names = {"algorithm", "objective"};
        for (const auto& role : declared_) names.push_back(role.name);
        const auto near = closest_match(name, names);
        throw ValidationError(fmt::format(
            "unknown role '{}' for algorithm '{}'{}; its roles: {}; remove {}", name, algorithm_.name,
            near ? fmt::format(" (did you mean '{}'?)", *near) : "", role_list(declared_),
            given.name.empty() ? fmt::format("the {}.* settings", name) : fmt::format("--{} {}", name, given.name)));
    }
    for (const Role& role : declared_) {
        const auto given = spec.roles.find(role.name);
        const bool named = given != spec.roles.end() && !given->second.name.empty();
        ModuleChoice choice;
        if (named) {
            choice = given->second;
        } else if (!role.default_module.empty()) {
            choice.name = role.default_module;
            if (given != spec.roles.end()) choice.parameters = given->second.parameters;
        } else if (given != spec.roles.end() || role.required) {
            throw ValidationError(fmt::format(
                "algorithm '{}' needs a {} for its role '{}' ({}){}; name one with --{} NAME "
                "(see 'dpbo list --kind {}')",
                algorithm_.name, to_string(role.kind), role.name, role.doc,
                given != spec.roles.end() ? " for the settings given" : "", role.name, to_string(role.kind)));
        } else {
            continue;
        }
        if (choice.name == role.default_module)
            for (const auto& [key, value] : role.default_parameters) choice.parameters.emplace(key, value);
        if (registry_.find(role.kind, choice.name) == nullptr)
            for (const LoadedPlugin& plugin : registry_.plugins())
                if (plugin.manifest.name == choice.name)
                    throw ValidationError(
                        fmt::format("role '{}' of algorithm '{}' takes a {}, but '{}' is a {} (see 'dpbo list "
                                    "--kind {}')",
                                    role.name, algorithm_.name, to_string(role.kind), choice.name,
                                    to_string(plugin.manifest.kind), to_string(role.kind)));
        registry_.require(role.kind, choice.name);
        roles_.emplace(role.name, std::move(choice));
    }
}

void JobModules::add_run_accountant_role(const JobSpec& spec) {
    if (spec.roles.count(kRunAccountantRole) == 0) return;
    const auto accountant_role = std::find_if(declared_.begin(), declared_.end(),
                                              [](const Role& r) { return r.kind == ModuleKind::Accountant; });
    if (accountant_role != declared_.end()) {
        if (accountant_role->name == kRunAccountantRole) return;  // the algorithm's own role takes it
        throw ValidationError(
            fmt::format("algorithm '{}' composes its releases with its role '{}'; name the "
                        "accountant with --{} NAME instead of --{}",
                        algorithm_.name, accountant_role->name, accountant_role->name, kRunAccountantRole));
    }
    // Any algorithm's releases are composed by one accountant; without a role of its own the host
    // offers one, so the user can choose it (the mechanisms' preference stays the default).
    declared_.push_back({kRunAccountantRole,
                         ModuleKind::Accountant,
                         false,
                         "",
                         "the run's accountant: composes every private release of the run (default: the one the "
                         "run's mechanisms ask for)",
                         {}});
}

std::shared_ptr<Objective> JobModules::create_objective() const {
    std::shared_ptr<Objective> objective = registry_.create_as<Objective>(objective_.name, objective_.parameters);
    // A finite space's rows must come with their status before any algorithm can search them.
    call_into_module(objective->describe_origin(), "declaring its capabilities",
                     [&] { check_objective_capabilities(*objective); });
    // Trials that are private learners protect the objective's training records; a release of the
    // search's own (a mechanism on the values, a selection, a row release) protects whatever its
    // sensitivity was stated for. One run states one guarantee, so the two are refused together.
    if (capability<PrivateTrials>(*objective) != nullptr)
        for (const auto& [name, choice] : roles_) {
            const auto role =
                std::find_if(declared_.begin(), declared_.end(), [&](const Role& r) { return r.name == name; });
            if (role == declared_.end()) continue;
            if (role->kind == ModuleKind::Mechanism || role->kind == ModuleKind::Selection ||
                role->kind == ModuleKind::RowRelease)
                throw ValidationError(fmt::format(
                    "objective '{}' runs trials that are private learners (their events are composed, or covered by a "
                    "private selection), and algorithm '{}' was also given {} '{}' for its role '{}': one run states "
                    "one guarantee; drop the {} (each trial's score is already privatised) or select privately "
                    "with private-search",
                    objective_.name, algorithm_.name, to_string(role->kind), choice.name, name, to_string(role->kind)));
        }
    return objective;
}

JobComponents JobModules::create_components() const {
    JobComponents out;
    out.algorithm = registry_.create_as<Algorithm>(algorithm_.name, algorithm_.parameters);
    for (const auto& [name, choice] : roles_) {
        const Role& role =
            *std::find_if(declared_.begin(), declared_.end(), [&](const Role& r) { return r.name == name; });
        out.roles.add(name, registry_.create(role.kind, choice.name, choice.parameters));
    }
    return out;
}

}  // namespace dpbo
