#pragma once
// Private selection: pick one index from a vector of scores (larger is better), e.g. by the
// exponential mechanism. Built from its privacy parameters, calibrated to the sensitivity of the
// scores, and then it selects — charging its event() to the run's privacy ledger before it draws
// any noise, exactly as a Mechanism releases.
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/private_release.hpp"

namespace dpbo {

class PrivacyLedger;
class PrivacyNoiseSource;

class Selection : public PrivateRelease {
public:
    ~Selection() override;
    static constexpr ModuleKind static_kind = ModuleKind::Selection;
    ModuleKind kind() const final { return static_kind; }

    // The chosen index in [0, scores.n_elem): charges event() (described by `what`) to `ledger`, then
    // draws from the ledger's noise source and logs the index. Throws what charge() throws before any
    // noise is drawn; RunError for no scores or a choice out of range.
    std::size_t select(const arma::vec& scores, PrivacyLedger& ledger, const std::string& what) const;

protected:
    // The chosen index, with randomness from `noise`; called by select() after the charge.
    virtual std::size_t choose(const arma::vec& scores, PrivacyNoiseSource& noise) const = 0;
};

}  // namespace dpbo
