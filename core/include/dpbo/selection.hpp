#pragma once
// Private selection: pick one index from a vector of scores (larger is better), e.g. by the
// exponential mechanism. Built from its privacy parameters, calibrated to the sensitivity of the
// scores, and then it selects — charging its event() to the run's privacy ledger before it draws
// any noise, exactly as a Mechanism releases.
#include <cstddef>
#include <string>

#include <armadillo>

#include "dpbo/module.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class PrivacyLedger;
class PrivacyNoiseSource;

class Selection : public Module {
public:
    ~Selection() override;
    static constexpr ModuleKind static_kind = ModuleKind::Selection;
    ModuleKind kind() const final { return static_kind; }

    // Fixes the selection for scores that move by at most `quality_sensitivity` (each score, between
    // neighbouring datasets). Throws ValidationError for a non-positive or non-finite sensitivity.
    virtual void calibrate(double quality_sensitivity) = 0;
    virtual bool calibrated() const = 0;
    // The privacy event of one selection, as calibrated; RunError before calibrate().
    virtual PrivacyEvent event() const = 0;
    // The guarantee of one selection (notion and parameters; the caller adds unit and released).
    virtual PrivacyStatement guarantee() const = 0;

    // The chosen index in [0, scores.n_elem): charges event() (described by `what`) to `ledger`, then
    // draws from the ledger's noise source and logs the index. Throws what charge() throws before any
    // noise is drawn; RunError for no scores or a choice out of range.
    std::size_t select(const arma::vec& scores, PrivacyLedger& ledger, const std::string& what) const;

protected:
    // The chosen index, with randomness from `noise`; called by select() after the charge.
    virtual std::size_t choose(const arma::vec& scores, PrivacyNoiseSource& noise) const = 0;
};

}  // namespace dpbo
