#pragma once
// Privacy mechanisms. A mechanism is built from its privacy parameters, then calibrated to the
// sensitivity of the query it will answer, and only then releases values — the order Google's
// library enforces: build, validate, use. Every release goes through the run's privacy ledger:
// release() charges the mechanism's event() first, and only then draws noise (add_noise()), so a
// release the budget refuses draws nothing and no noise bypasses the accounting.
#include <string>

#include <armadillo>

#include "dpbo/private_release.hpp"

namespace dpbo {

class PrivacyLedger;
class PrivacyNoiseSource;

class Mechanism : public PrivateRelease {
public:
    ~Mechanism() override;
    static constexpr ModuleKind static_kind = ModuleKind::Mechanism;
    ModuleKind kind() const final { return static_kind; }

    // The norm in which the caller must state the query's sensitivity.
    virtual SensitivityNorm sensitivity_norm() const = 0;
    // Standard deviation (Gaussian) or scale b (Laplace) of the per-coordinate noise, once calibrated.
    // One event() covers the release of a whole vector.
    virtual double noise_scale() const = 0;

    // value + noise: charges event() (described by `what`, e.g. "gradient at step 3") to `ledger`,
    // then draws the noise from the ledger's noise source and logs the released value. Throws what
    // charge() throws (BudgetExceeded, ...) before any noise is drawn, RunError before calibrate().
    arma::vec release(const arma::vec& value, PrivacyLedger& ledger, const std::string& what) const;

protected:
    // value + noise from `noise`; called by release() after the charge, never directly.
    virtual arma::vec add_noise(const arma::vec& value, PrivacyNoiseSource& noise) const = 0;
};

}  // namespace dpbo
