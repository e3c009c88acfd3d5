#pragma once
// Private release of a dataset's rows: the curator hands over a transform Z (n × r) of its sensitive
// rows X (n × d), one released row per input row and in the same order, so that a modeler can search
// over the rows and name the one it wants by index without seeing X (Kharkovskii, Dai & Low 2020,
// Alg. 1). Built, calibrated and charged like every PrivateRelease: release() charges event() to the
// run's ledger before any noise is drawn.
//
// Units: the rows given to release() are in the release's own units, where neighbouring datasets
// differ in one row by at most the calibrated sensitivity in L2 norm. dpbo/privacy/row_scaling.hpp
// maps a dataset with declared column bounds there.
#include <cstddef>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/private_release.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class PrivacyLedger;
class PrivacyNoiseSource;

struct RowReleaseOutcome {
    arma::mat rows;  // n × released_columns(d): what is released
    // Figures computed from the sensitive rows that explain the release (e.g. σ_min(X) and the regime
    // it put Algorithm 1 in): never released, written under evaluation_only.
    std::vector<ReleasedValue> evaluation_only;
};

class RowRelease : public PrivateRelease {
public:
    ~RowRelease() override;
    static constexpr ModuleKind static_kind = ModuleKind::RowRelease;
    ModuleKind kind() const final { return static_kind; }

    // r: the number of columns released for `input_columns` columns of X.
    virtual std::size_t released_columns(std::size_t input_columns) const = 0;

    // Charges event() (described by `what`) to `ledger`, then transforms the rows with noise from the
    // ledger's noise source and logs the released matrix. Throws ValidationError for no rows or a
    // non-finite entry (without printing it), what charge() throws before any noise is drawn, and
    // RunError when the transform returns a shape other than n × released_columns(d).
    RowReleaseOutcome release(const arma::mat& rows, PrivacyLedger& ledger, const std::string& what) const;

protected:
    // The release of `rows` with randomness from `noise`; called by release() after the charge.
    virtual RowReleaseOutcome transform(const arma::mat& rows, PrivacyNoiseSource& noise) const = 0;
};

}  // namespace dpbo
