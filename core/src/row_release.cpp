// The RowRelease interface's out-of-line parts: the one path from a dataset's rows to their release.
#include "dpbo/row_release.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

RowRelease::~RowRelease() = default;

RowReleaseOutcome RowRelease::release(const arma::mat& rows, PrivacyLedger& ledger, const std::string& what) const {
    if (rows.is_empty())
        throw ValidationError(fmt::format("{}: row release '{}' was given {}×{} rows; expected at least one row and "
                                          "one column",
                                          ledger.owner(), what, rows.n_rows, rows.n_cols));
    if (!rows.is_finite())
        throw ValidationError(fmt::format("{}: row release '{}' was given rows with a NaN or infinite entry",
                                          ledger.owner(), what));
    const std::size_t entry = charge(ledger, what);
    RowReleaseOutcome outcome = transform(rows, ledger.noise());
    const std::size_t columns = released_columns(rows.n_cols);
    if (outcome.rows.n_rows != rows.n_rows || outcome.rows.n_cols != columns)
        throw RunError(fmt::format("{}: row release '{}' ({}) returned {}×{} rows for {}×{} input; expected {}×{}",
                                   ledger.owner(), what, describe_origin(), outcome.rows.n_rows, outcome.rows.n_cols,
                                   rows.n_rows, rows.n_cols, rows.n_rows, columns));
    ledger.record_release(entry, arma::vectorise(outcome.rows));
    return outcome;
}

}  // namespace dpbo
