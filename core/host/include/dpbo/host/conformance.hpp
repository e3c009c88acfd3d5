#pragma once
// Conformance: the checks every module of a kind must pass, whoever wrote it — run over every plugin
// the registry finds by the test suite, and over a third party's file by `dpbo check FILE.so`.
// A check states one promise of the contract (a mechanism charges the ledger before any noise; an
// accountant's clones are independent; an objective meets the evaluation contract ...) and tries
// to break it with the module's own code; it reports what it saw when the promise does not hold.
#include <map>
#include <string>
#include <vector>

#include "dpbo/module.hpp"

namespace dpbo {

class PluginRegistry;

struct ConformanceCheck {
    std::string name;  // the promise, in words: "refuses to release before calibration"
    bool passed = false;
    std::string detail;  // what was seen when it failed (or why it did not apply)
};

struct ConformanceReport {
    ModuleKind kind = ModuleKind::Objective;
    std::string module;  // the module's name
    std::vector<ConformanceCheck> checks;

    bool passed() const;
    std::size_t failures() const;
};

// The kinds that have checks of their own: mechanism, selection, row release, accountant, objective.
// Every other module is checked only for being created from its parameters.
bool has_conformance_checks(ModuleKind kind);

// Creates module `name` of `kind` from `parameters` (its defaults for the rest) and runs its kind's
// checks. A module that cannot be created fails the first check, "created from its parameters",
// with the reason; the others are then not run. Mechanisms, selections and row releases are checked
// through a ledger composed by the accountant they name, which must be in `registry` too. Nothing
// here throws for a failing module: every failure is a failed check.
ConformanceReport check_module(PluginRegistry& registry, ModuleKind kind, const std::string& name,
                               const std::map<std::string, std::string>& parameters = {});

}  // namespace dpbo
