#pragma once
// Privacy mechanisms. A mechanism is built from its privacy parameters, then calibrated to the
// sensitivity of the query it will answer, and only then releases values — the order Google's
// library enforces: build, validate, use. Every release goes through the run's privacy ledger:
// release() charges the mechanism's event() first, and only then draws noise (add_noise()), so a
// release the budget refuses draws nothing and no noise bypasses the accounting.
#include <map>
#include <string>

#include <armadillo>

#include "dpbo/module.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class PrivacyLedger;
class PrivacyNoiseSource;

// An accountant plugin by name, with its parameters.
struct AccountantChoice {
    std::string name;
    std::map<std::string, std::string> parameters;
};

class Mechanism : public Module {
public:
    ~Mechanism() override;
    static constexpr ModuleKind static_kind = ModuleKind::Mechanism;
    ModuleKind kind() const final { return static_kind; }

    // The norm in which the caller must state the query's sensitivity.
    virtual SensitivityNorm sensitivity_norm() const = 0;
    // Fixes the noise for a query whose sensitivity (in sensitivity_norm()) is `sensitivity`.
    // Throws ValidationError for a non-positive or non-finite sensitivity.
    virtual void calibrate(double sensitivity) = 0;
    virtual bool calibrated() const = 0;
    // Standard deviation (Gaussian) or scale b (Laplace) of the per-coordinate noise.
    virtual double noise_scale() const = 0;
    // The privacy event of one release (of a whole vector), as calibrated; RunError before calibrate().
    virtual PrivacyEvent event() const = 0;
    // The accountant that composes this mechanism's events exactly ("gdp" for μ-GDP releases, "basic"
    // for ε- or (ε, δ)-DP ones). It is the run's accountant when the algorithm declares no accountant
    // role of its own, so a mechanism named on the command line is accounted as it should be.
    virtual AccountantChoice accountant() const = 0;
    // The guarantee of one release (notion and parameters; the caller adds unit and released).
    virtual PrivacyStatement guarantee() const = 0;

    // value + noise: charges event() (described by `what`, e.g. "gradient at step 3") to `ledger`,
    // then draws the noise from the ledger's noise source and logs the released value. Throws what
    // charge() throws (BudgetExceeded, ...) before any noise is drawn, RunError before calibrate().
    arma::vec release(const arma::vec& value, PrivacyLedger& ledger, const std::string& what) const;

protected:
    // value + noise from `noise`; called by release() after the charge, never directly.
    virtual arma::vec add_noise(const arma::vec& value, PrivacyNoiseSource& noise) const = 0;
};

}  // namespace dpbo
