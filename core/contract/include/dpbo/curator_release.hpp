#pragma once
// The curator's side of PO-GP-UCB (Kharkovskii, Dai & Low 2020, Algorithm 1) in one call, shared by
// the curator in the modeler's process and `dpbo curator release`: scale the objective's rows from
// their declared column bounds (RowScaling), state the ledger's scope in those units, calibrate the
// row release to sensitivity 1 there, and release the rows through the ledger.
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/privacy_statement.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Objective;
class PrivacyLedger;
class RowRelease;

struct CuratorRelease {
    arma::mat rows;                              // Z, n × r: released
    PrivacyStatement guarantee;                  // the release's own guarantee (RowRelease::guarantee())
    std::string covered_change;                  // the change of one row covered, in the data's units
    std::string scaling;                         // the map from the data to the release's units
    std::vector<ReleasedValue> evaluation_only;  // the release's data-dependent diagnostics: never released
};

// Throws ValidationError naming `owner` for an objective that is not a finite set of rows with declared
// bounds or has several outputs, and what the release and the ledger throw.
CuratorRelease release_objective_rows(const Objective& data, RowRelease& release, double norm_bound,
                                      PrivacyLedger& ledger, const std::string& owner);

// The released rows as the modeler reads them (the `curator` objective's `candidates`): a header
// z0,…,z{r−1} and one line of r numbers per row, each to 17 significant digits so it reads back exactly.
std::string released_rows_csv(const arma::mat& rows);

}  // namespace dpbo
