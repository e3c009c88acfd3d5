#include "dpbo/host/conformance.hpp"

#include <algorithm>

#include "checklist.hpp"
#include "conformance_kinds.hpp"
#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/private_release.hpp"

namespace dpbo {

bool ConformanceReport::passed() const { return failures() == 0; }

std::size_t ConformanceReport::failures() const {
    return static_cast<std::size_t>(
        std::count_if(checks.begin(), checks.end(), [](const ConformanceCheck& c) { return !c.passed; }));
}

bool has_conformance_checks(ModuleKind kind) {
    return kind == ModuleKind::Mechanism || kind == ModuleKind::Selection || kind == ModuleKind::RowRelease ||
           kind == ModuleKind::Accountant || kind == ModuleKind::Objective;
}

ConformanceReport check_module(PluginRegistry& registry, ModuleKind kind, const std::string& name,
                               const std::map<std::string, std::string>& parameters) {
    ConformanceReport report{kind, name, {}};
    conformance::Checklist list(report);
    std::shared_ptr<Module> module;
    const std::string who = fmt::format("{} '{}'", to_string(kind), name);
    if (!list.run("created from its parameters", who, [&] {
            try {
                module = registry.create(kind, name, parameters);
            } catch (const ValidationError& e) {
                // Its own refusal of the parameters given (a mechanism has no default ε): say it as is.
                conformance::broken("{} (give its parameters, e.g. dpbo check --set KEY=VALUE)", e.what());
            }
        }))
        return report;
    switch (kind) {
        case ModuleKind::Mechanism:
        case ModuleKind::Selection:
        case ModuleKind::RowRelease:
            conformance::check_private_release(list, registry, std::dynamic_pointer_cast<PrivateRelease>(module), [&] {
                return std::dynamic_pointer_cast<PrivateRelease>(registry.create(kind, name, parameters));
            });
            break;
        case ModuleKind::Accountant:
            conformance::check_accountant(list, [&] { return registry.create_as<Accountant>(name, parameters); });
            break;
        case ModuleKind::Objective:
            conformance::check_objective(list, std::dynamic_pointer_cast<Objective>(module));
            break;
        default:
            break;
    }
    return report;
}

}  // namespace dpbo
