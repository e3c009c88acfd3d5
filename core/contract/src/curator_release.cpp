#include "dpbo/curator_release.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy/row_scaling.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/row_release.hpp"

namespace dpbo {

CuratorRelease release_objective_rows(const Objective& data, RowRelease& release, double norm_bound,
                                      PrivacyLedger& ledger, const std::string& owner) {
    if (data.output_count() != 1)
        throw ValidationError(fmt::format("{}: {} has {} outputs; the curator answers one response per row", owner,
                                          data.describe_origin(), data.output_count()));
    const RowScaling scaling(data.space(), norm_bound, fmt::format("{} with {}", owner, data.describe_origin()));
    CuratorRelease out;
    out.covered_change = scaling.describe_covered_change(1.0);
    out.scaling = scaling.describe();
    ledger.set_scope(fmt::format("replace the features of one row by features at most 1 away in L2 norm after "
                                 "scaling to rows of norm at most {:g}",
                                 norm_bound),
                     out.covered_change);
    release.calibrate(1.0);
    // The rows are released privately whatever their status; they are read, as every reader of
    // candidate rows reads them, through FiniteCandidates.
    const CandidateRows candidates = require<FiniteCandidates>(data, owner).candidates();
    RowReleaseOutcome outcome =
        release.release(scaling.apply(candidates.rows), ledger, fmt::format("the rows of {}", data.describe_origin()));
    out.rows = std::move(outcome.rows);
    out.evaluation_only = std::move(outcome.evaluation_only);
    out.guarantee = release.guarantee();
    // Replacing one row keeps n; an objective that drops rows (duplicates, unusable values) before
    // they reach here could turn a replaced row into a missing one, which the relation does not cover.
    out.guarantee.assumptions.push_back(fmt::format(
        "the rows are those {} presents ({} of them, in its order); neighbouring datasets have as many, and a "
        "row the objective drops before the release (e.g. as a duplicate) is outside the relation",
        data.describe_origin(), out.rows.n_rows));
    return out;
}

std::string released_rows_csv(const arma::mat& rows) {
    std::string csv;
    for (arma::uword j = 0; j < rows.n_cols; ++j) csv += fmt::format("{}z{}", j == 0 ? "" : ",", j);
    csv += '\n';
    for (arma::uword i = 0; i < rows.n_rows; ++i) {
        for (arma::uword j = 0; j < rows.n_cols; ++j) csv += fmt::format("{}{:.17g}", j == 0 ? "" : ",", rows(i, j));
        csv += '\n';
    }
    return csv;
}

}  // namespace dpbo
