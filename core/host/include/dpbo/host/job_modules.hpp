#pragma once
// The modules of one job, resolved once and created on demand: the algorithm, the objective and the
// components the algorithm declares (a named one, or the algorithm's default with its default
// parameters under the user's own). Resolving checks every name, every parameter and the whole
// combination, so a bad job is refused before anything runs. Used by `dpbo audit`, which runs one
// job many times in-process with fresh components each run.
// `dpbo run` (runner.cpp) creates its modules through it too, so the two cannot drift apart.
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "dpbo/module.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/host/runner.hpp"

namespace dpbo {

class Acquisition;
class Algorithm;
class Mechanism;
class Objective;
class PluginRegistry;
class Surrogate;

// Fresh instances of everything but the objective.
struct JobComponents {
    std::shared_ptr<Algorithm> algorithm;
    std::shared_ptr<Surrogate> surrogate;
    std::shared_ptr<Acquisition> acquisition;
    std::shared_ptr<Mechanism> mechanism;
};

class JobModules {
public:
    // Throws ValidationError for unknown modules, bad parameters, a component the algorithm does
    // not use or a required one missing (the same messages as `dpbo run`). The objective's checks
    // of one parameter against another run when it is created.
    JobModules(PluginRegistry& registry, const JobSpec& spec);

    std::shared_ptr<Objective> create_objective() const;
    JobComponents create_components() const;

    const ModuleChoice& algorithm() const { return algorithm_; }
    const ModuleChoice& objective() const { return objective_; }
    // The objective's parameters as validated (the user's, plus every default).
    const ParameterSet& objective_parameters() const { return objective_parameters_; }
    // The module resolved for a component role (named by the user, or the algorithm's default with
    // its default parameters); none when the algorithm runs without one.
    const std::optional<ModuleChoice>& component(ModuleKind kind) const;

private:
    void resolve_components(const JobSpec& spec);

    PluginRegistry& registry_;
    ModuleChoice algorithm_;
    ModuleChoice objective_;
    ParameterSet objective_parameters_;
    std::optional<ModuleChoice> surrogate_;
    std::optional<ModuleChoice> acquisition_;
    std::optional<ModuleChoice> mechanism_;
};

}  // namespace dpbo
