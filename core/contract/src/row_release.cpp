// The RowRelease interface's out-of-line parts: the one path from a dataset's rows to their release.
#include "dpbo/row_release.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/run_journal.hpp"

namespace dpbo {

RowRelease::~RowRelease() = default;

RowReleaseOutcome RowRelease::release(const arma::mat& rows, PrivacyLedger& ledger, const std::string& what) const {
    if (rows.is_empty())
        throw ValidationError(
            fmt::format("{}: row release '{}' was given {}×{} rows; expected at least one row and "
                        "one column",
                        ledger.owner(), what, rows.n_rows, rows.n_cols));
    if (!rows.is_finite())
        throw ValidationError(
            fmt::format("{}: row release '{}' was given rows with a NaN or infinite entry", ledger.owner(), what));
    const std::size_t entry = charge(ledger, what);
    const std::size_t columns = released_columns(rows.n_cols);
    if (auto recorded = ledger.replayed(entry)) {
        if (recorded->released.n_elem != rows.n_rows * columns)
            throw RunError(
                fmt::format("{}: row release '{}' holds {} values in the run's journal; {}×{} expected "
                            "now; the journal belongs to another run",
                            ledger.owner(), what, recorded->released.n_elem, rows.n_rows, columns));
        return {arma::reshape(recorded->released, rows.n_rows, columns), recorded->evaluation_only};
    }
    RowReleaseOutcome outcome = transform(rows, ledger.noise_for(entry));
    if (outcome.rows.n_rows != rows.n_rows || outcome.rows.n_cols != columns)
        throw RunError(fmt::format("{}: row release '{}' ({}) returned {}×{} rows for {}×{} input; expected {}×{}",
                                   ledger.owner(), what, describe_origin(), outcome.rows.n_rows, outcome.rows.n_cols,
                                   rows.n_rows, rows.n_cols, rows.n_rows, columns));
    ledger.record_release(entry, arma::vectorise(outcome.rows), outcome.evaluation_only);
    return outcome;
}

}  // namespace dpbo
