#pragma once
// The modules of one job, resolved once and created on demand: the algorithm, the objective and a
// module for each role the algorithm declares (the one the user named, or the role's default with its
// default parameters under the user's own). Resolving checks every name, every parameter, every role
// and the whole combination, so a bad job is refused before anything runs. `dpbo run` (runner.cpp)
// and `dpbo audit` (which runs one job many times with fresh modules) both create modules through it.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/algorithm.hpp"
#include "dpbo/module.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/host/runner.hpp"

namespace dpbo {

class Objective;
class PluginRegistry;

// Fresh instances of everything but the objective.
struct JobComponents {
    std::shared_ptr<Algorithm> algorithm;
    RoleModules roles;
};

// `--accountant NAME` (and `accountant = NAME` in a config file): the run's accountant. When the
// algorithm declares an accountant role of this name the module goes there; when it declares none,
// the host adds the role (optional, no default), so every run's accountant can be chosen.
inline constexpr const char* kRunAccountantRole = "accountant";

// Names the host's own options use; no role may take one of them.
const std::vector<std::string>& reserved_role_names();

// Throws ValidationError naming the algorithm when a declared role is malformed (bad name, a reserved
// or repeated name, the kind of an objective or an algorithm).
void check_declared_roles(const std::string& algorithm, const std::vector<Role>& roles);

class JobModules {
public:
    // Throws ValidationError for unknown modules, bad parameters, a role the algorithm does not
    // declare, a module of the wrong kind for its role, or a required role left empty. The objective's
    // checks of one parameter against another run when it is created.
    JobModules(PluginRegistry& registry, const JobSpec& spec);

    std::shared_ptr<Objective> create_objective() const;
    JobComponents create_components() const;

    const ModuleChoice& algorithm() const { return algorithm_; }
    const ModuleChoice& objective() const { return objective_; }
    // The objective's parameters as validated (the user's, plus every default).
    const ParameterSet& objective_parameters() const { return objective_parameters_; }
    // The algorithm's roles, as it declares them.
    const std::vector<Role>& declared_roles() const { return declared_; }
    // The module resolved for each role that has one, by role name.
    const std::map<std::string, ModuleChoice>& roles() const { return roles_; }

private:
    void resolve_roles(const JobSpec& spec);
    // Adds the host's `accountant` role when the job names an accountant and the algorithm has no
    // accountant role (see kRunAccountantRole); refuses --accountant when the algorithm's accountant
    // role has another name.
    void add_run_accountant_role(const JobSpec& spec);

    PluginRegistry& registry_;
    ModuleChoice algorithm_;
    ModuleChoice objective_;
    ParameterSet objective_parameters_;
    std::vector<Role> declared_;
    std::map<std::string, ModuleChoice> roles_;
};

}  // namespace dpbo
