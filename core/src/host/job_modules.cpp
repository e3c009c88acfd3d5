#include "dpbo/host/job_modules.hpp"

#include <fmt/format.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo {

JobModules::JobModules(PluginRegistry& registry, const JobSpec& spec)
    : registry_(registry), algorithm_(spec.algorithm), objective_(spec.objective) {
    registry.require(ModuleKind::Algorithm, algorithm_.name);
    const LoadedPlugin& objective = registry.require(ModuleKind::Objective, objective_.name);
    objective_parameters_ = validate_parameters(objective.manifest.schema, objective_.parameters,
                                                fmt::format("objective '{}'", objective_.name));
    resolve_components(spec);
    // Creating the components once validates what parameters alone cannot (one against another).
    // The objective validates itself when the caller creates it: building one may be costly
    // (gp-lengthscales factorises its records), so it is not built twice.
    create_components();
}

void JobModules::resolve_components(const JobSpec& spec) {
    const auto roles = registry_.create_as<Algorithm>(algorithm_.name, algorithm_.parameters)->components();
    const auto declared = [&](ModuleKind kind) -> const ComponentRole* {
        for (const auto& role : roles)
            if (role.kind == kind) return &role;
        return nullptr;
    };
    std::string uses;
    for (const auto& role : roles)
        uses += fmt::format("{}{} ({})", uses.empty() ? "" : ", ", to_string(role.kind),
                            role.required ? "required" : "optional");
    // A component given with parameters but no name means "the algorithm's default, with these".
    const auto resolve = [&](ModuleKind kind, const std::optional<ModuleChoice>& given,
                             std::optional<ModuleChoice>& resolved) {
        const ComponentRole* role = declared(kind);
        const bool named = given && !given->name.empty();
        if (given && role == nullptr)
            throw ValidationError(fmt::format("algorithm '{}' does not use a {} (it uses: {}); remove {}",
                                              algorithm_.name, to_string(kind), uses.empty() ? "nothing" : uses,
                                              named ? fmt::format("--{}", to_string(kind))
                                                    : fmt::format("the {}.* settings", to_string(kind))));
        ModuleChoice choice;
        if (named) {
            choice = *given;
        } else if (role != nullptr && !role->default_name.empty()) {
            choice = ModuleChoice{role->default_name, given ? given->parameters : std::map<std::string, std::string>{}};
        } else if (given || (role != nullptr && role->required)) {
            throw ValidationError(fmt::format("algorithm '{}' needs a named {} ({}){}; name one with --{}",
                                              algorithm_.name, to_string(kind), role->doc,
                                              given ? " for the settings given" : "", to_string(kind)));
        } else {
            return;
        }
        if (role != nullptr && choice.name == role->default_name)
            for (const auto& [key, value] : role->default_parameters) choice.parameters.emplace(key, value);
        registry_.require(kind, choice.name);
        resolved = std::move(choice);
    };
    resolve(ModuleKind::Surrogate, spec.surrogate, surrogate_);
    resolve(ModuleKind::Acquisition, spec.acquisition, acquisition_);
    resolve(ModuleKind::Mechanism, spec.mechanism, mechanism_);
}

const std::optional<ModuleChoice>& JobModules::component(ModuleKind kind) const {
    static const std::optional<ModuleChoice> none;
    switch (kind) {
        case ModuleKind::Surrogate: return surrogate_;
        case ModuleKind::Acquisition: return acquisition_;
        case ModuleKind::Mechanism: return mechanism_;
        default: return none;
    }
}

std::shared_ptr<Objective> JobModules::create_objective() const {
    return registry_.create_as<Objective>(objective_.name, objective_.parameters);
}

JobComponents JobModules::create_components() const {
    JobComponents out;
    out.algorithm = registry_.create_as<Algorithm>(algorithm_.name, algorithm_.parameters);
    if (surrogate_) out.surrogate = registry_.create_as<Surrogate>(surrogate_->name, surrogate_->parameters);
    if (acquisition_) out.acquisition = registry_.create_as<Acquisition>(acquisition_->name, acquisition_->parameters);
    if (mechanism_) out.mechanism = registry_.create_as<Mechanism>(mechanism_->name, mechanism_->parameters);
    return out;
}

}  // namespace dpbo
