#pragma once
// A row release audited on two neighbouring datasets. The released Z (n × r) is summarised by
// coordinates an auditor who knows both datasets can compute: how far Z lies outside the span of each
// dataset's rows (with the constant column, which centring adds), relative to ‖Z‖_F. A release that
// keeps Z inside the column space of its own input — Algorithm 1 of Kharkovskii et al. (2020) does —
// shows ≈ 0 in its own world and a clear gap in the other, so one release tells the worlds apart; the
// entries of the changed row's image are audited too, as a generic auditor would.
#include <cstddef>
#include <cstdint>

#include <armadillo>

#include "release_samples.hpp"

namespace dpbo {
class RowRelease;
}  // namespace dpbo

namespace dpbo::audit {

// A dataset and its neighbour in a row release's units: D has `rows` rows drawn uniformly from the L2
// ball of radius `norm_bound` in `columns` dimensions (from `seed`); D′ moves row 0 by exactly
// `sensitivity` in a random direction.
struct RowWorlds {
    arma::mat first;
    arma::mat second;
};
RowWorlds row_worlds(std::size_t rows, std::size_t columns, double norm_bound, double sensitivity, std::uint64_t seed);

// `runs` releases of each world's rows by a calibrated row release, each charged on a fresh ledger of
// its world's (run_ledgers.hpp). Coordinates: "residual outside span(D)",
// "residual outside span(D′)" and "Z[0,j]" for the first min(r, 4) columns of row 0's image.
ReleaseSamples sample_row_release(const RowRelease& release, const RowWorlds& worlds, std::size_t runs,
                                  RunLedgers& ledgers_first, RunLedgers& ledgers_second);

}  // namespace dpbo::audit
