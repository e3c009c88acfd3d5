#include "released_rows.hpp"

#include <cstring>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::released_rows {

std::string row_key(const arma::rowvec& row) {
    std::string key(row.n_elem * sizeof(double), '\0');
    std::memcpy(key.data(), row.memptr(), key.size());
    return key;
}

SearchSpace space_of(const arma::mat& released) {
    if (released.is_empty() || !released.is_finite())
        throw ValidationError(fmt::format("released rows: {}×{} with {}; expected at least one finite row",
                                          released.n_rows, released.n_cols,
                                          released.is_finite() ? "no entries" : "a NaN or infinite entry"));
    double half_range = arma::abs(released).max();
    if (half_range == 0.0) half_range = 1.0;  // all rows at the origin: any common scale will do
    std::vector<Dimension> bounds;
    for (arma::uword j = 0; j < released.n_cols; ++j)
        bounds.push_back({fmt::format("z{}", j), -half_range, half_range});
    return SearchSpace::candidates_within(released, std::move(bounds));
}

namespace {

std::uint64_t bits_hash(const double* values, std::size_t count) {
    std::uint64_t h = 0x243F6A8885A308D3ULL;
    for (std::size_t j = 0; j < count; ++j) {
        std::uint64_t bits = 0;
        std::memcpy(&bits, values + j, sizeof(bits));
        h ^= bits;
        h *= 0x9E3779B97F4A7C15ULL;
        h ^= h >> 29;
    }
    return h;
}

}  // namespace

RowIndex::RowIndex(const arma::mat& rows) : by_row_(rows.t()) {
    index_.reserve(rows.n_rows);
    for (arma::uword i = 0; i < by_row_.n_cols; ++i) {
        // Of identical rows only the first is indexed.
        if (!find(by_row_.colptr(i))) index_.emplace(bits_hash(by_row_.colptr(i), by_row_.n_rows), i);
    }
}

std::optional<arma::uword> RowIndex::find(const double* values) const {
    const std::size_t bytes = by_row_.n_rows * sizeof(double);
    const auto [first, last] = index_.equal_range(bits_hash(values, by_row_.n_rows));
    for (auto it = first; it != last; ++it)
        if (std::memcmp(by_row_.colptr(it->second), values, bytes) == 0) return it->second;
    return std::nullopt;
}

arma::uvec RowIndex::rows_of(const arma::mat& points, const std::string& owner) const {
    arma::uvec rows(points.n_rows);
    if (points.n_rows > 0 && points.n_cols != by_row_.n_rows)
        throw ValidationError(fmt::format("{}: points have {} columns; the {} released rows have {}", owner,
                                          points.n_cols, by_row_.n_cols, by_row_.n_rows));
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const arma::rowvec point = points.row(i);
        const std::optional<arma::uword> found = find(point.memptr());
        if (!found)
            throw ValidationError(
                fmt::format("{}: point {} is not one of the {} released rows; the curator answers "
                            "for released rows only",
                            owner, i, by_row_.n_cols));
        rows(i) = *found;
    }
    return rows;
}

ReleasedRowsObjective::ReleasedRowsObjective(const arma::mat& released, Sense sense, std::string owner)
    : space_(space_of(released)), sense_(sense), index_(released), owner_(std::move(owner)) {}

Evaluations ReleasedRowsObjective::evaluate(const arma::mat& points, const EvaluationRequest& request) {
    if (request.per_record)
        throw ValidationError(
            fmt::format("{}: per-record values were asked of released rows; the curator answers "
                        "one value per row",
                        owner_));
    Evaluations evaluations;
    evaluations.points = points;
    evaluations.candidate_rows = index_.rows_of(points, owner_);
    const arma::vec values = answer(evaluations.candidate_rows, request);
    if (values.n_elem != points.n_rows)
        throw RunError(
            fmt::format("{}: the curator answered {} values for {} rows", owner_, values.n_elem, points.n_rows));
    evaluations.values = values;
    return evaluations;
}

}  // namespace dpbo::released_rows
