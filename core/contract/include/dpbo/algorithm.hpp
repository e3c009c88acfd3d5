#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Evaluator;
class ExperimentRng;
class ModuleFactory;
class Objective;
class PrivacyLedger;
class RunObserver;

// A part an algorithm takes besides its objective, declared as data. From this list alone the host
// builds the job (the module named for the role, or the default with its default parameters under
// the user's own), the command line (--NAME MODULE, --set NAME.KEY=VALUE, [NAME] sections in config
// files), `dpbo info ALGORITHM` and the test helpers; adding a role to an algorithm is one entry here.
struct Role {
    std::string name;  // "surrogate", "value_release", "accountant": lower case, digits, '_' or '-'
    ModuleKind kind = ModuleKind::Surrogate;
    bool required = false;
    std::string default_module;  // empty: no default
    std::string doc;             // one line: what the algorithm does with it
    // Applied when the role gets its default module; the user's own settings override them.
    std::map<std::string, std::string> default_parameters;
};

// The modules a run was given for its roles, by role name.
class RoleModules {
public:
    // Throws RunError for a second module under one name.
    void add(const std::string& role, std::shared_ptr<Module> module);
    bool has(const std::string& role) const { return modules_.count(role) != 0; }
    const std::map<std::string, std::shared_ptr<Module>>& all() const { return modules_; }

    // The module given for `role` as the interface the algorithm expects, or null when the run has
    // none; throws RunError when the module is of another kind.
    template <class Interface>
    std::shared_ptr<Interface> get(const std::string& role) const {
        const auto it = modules_.find(role);
        if (it == modules_.end()) return nullptr;
        if (auto typed = std::dynamic_pointer_cast<Interface>(it->second)) return typed;
        throw_wrong_kind(role, Interface::static_kind, it->second->kind());
    }

private:
    [[noreturn]] static void throw_wrong_kind(const std::string& role, ModuleKind expected, ModuleKind given);
    std::map<std::string, std::shared_ptr<Module>> modules_;
};

struct RunContext {
    Objective& objective;
    Evaluator& evaluator;
    ExperimentRng& rng;  // initial designs, tie breaks: reproducible
    // Every private release is charged here, and only through it (a Mechanism's release, a
    // Selection's select) is privacy noise drawn. The algorithm states its scope on it once, and
    // returns the words of its privacy statement; the host makes the statement from the ledger.
    PrivacyLedger& ledger;
    RunObserver& observer;
    ModuleFactory& modules;
    RoleModules roles;

    // context.role<Surrogate>("surrogate"): the module given for a declared role, or null.
    template <class Interface>
    std::shared_ptr<Interface> role(const std::string& name) const {
        return roles.get<Interface>(name);
    }
};

class Algorithm : public Module {
public:
    ~Algorithm() override;
    static constexpr ModuleKind static_kind = ModuleKind::Algorithm;
    ModuleKind kind() const final { return static_kind; }

    // The roles the algorithm takes (see Role); called on an instance made with the user's parameters,
    // so defaults may follow them.
    virtual std::vector<Role> roles() const { return {}; }
    // Throws ValidationError when the objective lacks what the method needs (per-record losses,
    // a finite candidate set, ...), RunError when the run fails. The result's `privacy` holds the
    // statement's words (released, assumptions, mechanism; NotPrivate to claim nothing): its numbers
    // are the ledger's, filled in by the host with context.ledger.statement_for(result.privacy).
    virtual RunResult run(RunContext& context) = 0;
};

}  // namespace dpbo
