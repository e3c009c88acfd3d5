#include "row_release_samples.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"

namespace dpbo::audit {

namespace {

// An orthonormal basis of span([1, X]).
arma::mat span_basis(const arma::mat& rows) {
    arma::mat q;
    arma::mat r;
    arma::qr_econ(q, r, arma::join_rows(arma::ones(rows.n_rows), rows));
    return q;
}

double relative_residual(const arma::mat& basis, const arma::mat& z) {
    const double norm = arma::norm(z, "fro");
    if (norm == 0.0) return 0.0;
    return arma::norm(z - basis * (basis.t() * z), "fro") / norm;
}

}  // namespace

RowWorlds row_worlds(std::size_t rows, std::size_t columns, double norm_bound, double sensitivity, std::uint64_t seed) {
    ExperimentRng rng(seed);
    RowWorlds worlds;
    worlds.first.set_size(rows, columns);
    for (std::size_t i = 0; i < rows; ++i) {
        arma::rowvec direction = rng.normal(1, columns);
        direction /= arma::norm(direction);
        // Uniform in the ball: radius R·U^(1/d).
        worlds.first.row(i) = direction * norm_bound * std::pow(rng.uniform(), 1.0 / static_cast<double>(columns));
    }
    arma::rowvec move = rng.normal(1, columns);
    move *= sensitivity / arma::norm(move);
    worlds.second = worlds.first;
    worlds.second.row(0) += move;
    return worlds;
}

ReleaseSamples sample_row_release(const RowRelease& release, const RowWorlds& worlds, std::size_t runs,
                                  RunLedgers& ledgers_first, RunLedgers& ledgers_second) {
    const arma::mat basis_first = span_basis(worlds.first);
    const arma::mat basis_second = span_basis(worlds.second);
    const std::size_t entries = std::min<std::size_t>(release.released_columns(worlds.first.n_cols), 4);
    ReleaseSamples samples;
    samples.coordinates = {"residual outside span(D)", "residual outside span(D′)"};
    for (std::size_t j = 0; j < entries; ++j) samples.coordinates.push_back(fmt::format("Z[0,{}]", j));
    samples.first.set_size(runs, samples.coordinates.size());
    samples.second.set_size(runs, samples.coordinates.size());
    const auto summarise = [&](const arma::mat& z, arma::mat& out, std::size_t i) {
        if (!z.is_finite())
            throw RunError(fmt::format("{} released a NaN or infinite entry", release.describe_origin()));
        out(i, 0) = relative_residual(basis_first, z);
        out(i, 1) = relative_residual(basis_second, z);
        for (std::size_t j = 0; j < entries; ++j) out(i, 2 + j) = z(0, j);
    };
    for (std::size_t i = 0; i < runs; ++i) {
        summarise(release.release(worlds.first, ledgers_first.next_run(), "audit release in world D").rows,
                  samples.first, i);
        summarise(release.release(worlds.second, ledgers_second.next_run(), "audit release in world D′").rows,
                  samples.second, i);
    }
    return samples;
}

}  // namespace dpbo::audit
