#pragma once
// What every private release shares, whether it adds noise to a value (Mechanism) or picks an index
// (Selection): it is built from its privacy parameters, calibrated to the sensitivity of what it
// answers, and each use is one privacy event, charged to the run's ledger before any noise is drawn
// and composed by the accountant the release names.
#include <cstddef>
#include <map>
#include <string>

#include "dpbo/module.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class PrivacyLedger;

// An accountant plugin by name, with its parameters.
struct AccountantChoice {
    std::string name;
    std::map<std::string, std::string> parameters;
};

class PrivateRelease : public Module {
public:
    ~PrivateRelease() override;

    // Fixes the noise for a query whose sensitivity is `sensitivity` (a Mechanism's in its
    // sensitivity_norm(); a Selection's: how far any one score moves between neighbouring datasets).
    // Throws ValidationError for a non-positive or non-finite sensitivity.
    virtual void calibrate(double sensitivity) = 0;
    virtual bool calibrated() const = 0;
    // The privacy event of one use, as calibrated; RunError before calibrate().
    virtual PrivacyEvent event() const = 0;
    // The accountant that composes this release's events exactly ("gdp" for μ-GDP releases, "basic"
    // for ε- or (ε, δ)-DP ones). It is the run's accountant when the algorithm declares no accountant
    // role of its own, so a module named on the command line is accounted as it should be.
    virtual AccountantChoice accountant() const = 0;
    // The guarantee of one use (notion and parameters; the caller adds unit and released).
    virtual PrivacyStatement guarantee() const = 0;

protected:
    // Charges event(), described by `what`, to `ledger` and returns the ledger entry to record the
    // released value under; throws what PrivacyLedger::charge throws (BudgetExceeded, ...).
    std::size_t charge(PrivacyLedger& ledger, const std::string& what) const;
};

}  // namespace dpbo
