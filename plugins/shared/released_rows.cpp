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

RowIndex::RowIndex(const arma::mat& rows) {
    index_.reserve(rows.n_rows);
    for (arma::uword i = 0; i < rows.n_rows; ++i) index_.emplace(row_key(rows.row(i)), i);
}

arma::uvec RowIndex::rows_of(const arma::mat& points, const std::string& owner) const {
    arma::uvec rows(points.n_rows);
    for (arma::uword i = 0; i < points.n_rows; ++i) {
        const auto found = index_.find(row_key(points.row(i)));
        if (found == index_.end())
            throw ValidationError(
                fmt::format("{}: point {} is not one of the {} released rows; the curator answers "
                            "for released rows only",
                            owner, i, index_.size()));
        rows(i) = found->second;
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
