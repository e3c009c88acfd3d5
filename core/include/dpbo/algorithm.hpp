#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Acquisition;
class Evaluator;
class ExperimentRng;
class Mechanism;
class ModuleFactory;
class Objective;
class PrivacyLedger;
class RunObserver;
class Surrogate;

// A component an algorithm uses besides the objective. The host creates `default_name` when the
// user names none, refuses a component of a kind the algorithm does not declare, and refuses a run
// without a required one.
struct ComponentRole {
    ModuleKind kind = ModuleKind::Surrogate;
    bool required = false;
    std::string default_name;  // empty: no default
    std::string doc;
    // Applied when the component is the default one; the user's own settings override them.
    std::map<std::string, std::string> default_parameters;
};

struct RunContext {
    Objective& objective;
    Evaluator& evaluator;
    ExperimentRng& rng;           // initial designs, tie breaks: reproducible
    // Every private release is charged here, and only through it (a Mechanism's release, a
    // Selection's select) is privacy noise drawn. The algorithm states its scope on it once, and
    // returns the words of its privacy statement; the host makes the statement from the ledger.
    PrivacyLedger& ledger;
    RunObserver& observer;
    ModuleFactory& modules;
    std::shared_ptr<Surrogate> surrogate;
    std::shared_ptr<Acquisition> acquisition;
    std::shared_ptr<Mechanism> mechanism;
};

class Algorithm : public Module {
public:
    ~Algorithm() override;
    static constexpr ModuleKind static_kind = ModuleKind::Algorithm;
    ModuleKind kind() const final { return static_kind; }

    virtual std::vector<ComponentRole> components() const { return {}; }
    // Throws ValidationError when the objective lacks what the method needs (per-record losses,
    // a finite candidate set, ...), RunError when the run fails. The result's `privacy` holds the
    // statement's words (released, assumptions, mechanism; NotPrivate to claim nothing): its numbers
    // are the ledger's, filled in by the host with context.ledger.statement_for(result.privacy).
    virtual RunResult run(RunContext& context) = 0;
};

}  // namespace dpbo
