#include "dpbo/space.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

SearchSpace SearchSpace::box(std::vector<Dimension> dimensions) {
    if (dimensions.empty()) throw ValidationError("search space: a box needs at least one dimension");
    for (const auto& d : dimensions) {
        if (!std::isfinite(d.lower) || !std::isfinite(d.upper) || d.lower >= d.upper)
            throw ValidationError(
                fmt::format("search space: dimension '{}' has bounds [{}, {}]; expected finite lower < upper", d.name,
                            d.lower, d.upper));
        // Points are sampled from and scaled by the width; past the largest double it is inf.
        if (!std::isfinite(d.upper - d.lower))
            throw ValidationError(
                fmt::format("search space: dimension '{}' has lower = {} and upper = {}, further apart than "
                            "the largest double; expected upper − lower finite",
                            d.name, d.lower, d.upper));
        if (d.scale == Scale::Log && d.lower <= 0.0)
            throw ValidationError(fmt::format(
                "search space: dimension '{}' is log-scaled but its lower bound {} is not > 0", d.name, d.lower));
        if (d.integer && std::ceil(d.lower) > std::floor(d.upper))
            throw ValidationError(fmt::format("search space: integer dimension '{}' has no integer in [{}, {}]", d.name,
                                              d.lower, d.upper));
    }
    SearchSpace space;
    space.dimensions_ = std::move(dimensions);
    return space;
}

SearchSpace SearchSpace::uniform_box(std::size_t dim, double lower, double upper, const std::string& name_prefix) {
    std::vector<Dimension> dims;
    for (std::size_t i = 0; i < dim; ++i) dims.push_back({fmt::format("{}{}", name_prefix, i), lower, upper});
    return box(std::move(dims));
}

SearchSpace SearchSpace::candidates(arma::mat rows, std::vector<std::string> names) {
    if (rows.n_rows == 0 || rows.n_cols == 0)
        throw ValidationError(
            fmt::format("search space: a candidate set needs at least one row and one column, got {}×{}", rows.n_rows,
                        rows.n_cols));
    if (!rows.is_finite()) throw ValidationError("search space: candidate set contains NaN or infinite entries");
    if (!names.empty() && names.size() != rows.n_cols)
        throw ValidationError(fmt::format("search space: {} column names for {} columns", names.size(), rows.n_cols));
    SearchSpace space;
    space.finite_ = true;
    for (std::size_t j = 0; j < rows.n_cols; ++j) {
        space.dimensions_.push_back(
            {names.empty() ? fmt::format("x{}", j) : names[j], rows.col(j).min(), rows.col(j).max()});
    }
    space.candidates_ = std::move(rows);
    return space;
}

SearchSpace SearchSpace::candidates_within(arma::mat rows, std::vector<Dimension> declared) {
    if (declared.size() != rows.n_cols)
        throw ValidationError(
            fmt::format("search space: {} declared column bounds for {} columns", declared.size(), rows.n_cols));
    std::vector<std::string> names;
    for (const auto& d : declared) names.push_back(d.name);
    SearchSpace space = candidates(std::move(rows), std::move(names));
    for (std::size_t j = 0; j < declared.size(); ++j) {
        const auto& d = declared[j];
        if (!std::isfinite(d.lower) || !std::isfinite(d.upper) || d.lower >= d.upper)
            throw ValidationError(
                fmt::format("search space: column '{}' has declared bounds [{}, {}]; expected finite "
                            "lower < upper",
                            d.name, d.lower, d.upper));
        const arma::uvec outside = arma::find(space.candidates_.col(j) < d.lower || space.candidates_.col(j) > d.upper);
        if (!outside.is_empty())
            throw ValidationError(fmt::format("search space: row {} has {} = {} outside its declared bounds [{}, {}]",
                                              outside(0), d.name, space.candidates_(outside(0), j), d.lower, d.upper));
        space.dimensions_[j].lower = d.lower;
        space.dimensions_[j].upper = d.upper;
    }
    space.bounds_declared_ = true;
    return space;
}

std::size_t SearchSpace::dim() const { return dimensions_.size(); }

std::vector<std::string> SearchSpace::names() const {
    std::vector<std::string> out;
    for (const auto& d : dimensions_) out.push_back(d.name);
    return out;
}

arma::rowvec SearchSpace::lower() const {
    arma::rowvec v(dim());
    for (std::size_t j = 0; j < dim(); ++j) v(j) = dimensions_[j].lower;
    return v;
}

arma::rowvec SearchSpace::upper() const {
    arma::rowvec v(dim());
    for (std::size_t j = 0; j < dim(); ++j) v(j) = dimensions_[j].upper;
    return v;
}

arma::mat SearchSpace::to_unit(const arma::mat& points) const {
    arma::mat unit(points.n_rows, points.n_cols);
    for (std::size_t j = 0; j < dim(); ++j) {
        const auto& d = dimensions_[j];
        if (d.upper == d.lower)  // a constant column of a candidate set carries no information
            unit.col(j).fill(0.5);
        else if (d.scale == Scale::Log)
            unit.col(j) = (arma::log(points.col(j)) - std::log(d.lower)) / (std::log(d.upper) - std::log(d.lower));
        else
            unit.col(j) = (points.col(j) - d.lower) / (d.upper - d.lower);
    }
    return unit;
}

arma::mat SearchSpace::from_unit(const arma::mat& unit_points) const {
    arma::mat points(unit_points.n_rows, unit_points.n_cols);
    for (std::size_t j = 0; j < dim(); ++j) {
        const auto& d = dimensions_[j];
        arma::vec u = arma::clamp(unit_points.col(j), 0.0, 1.0);
        if (d.scale == Scale::Log)
            points.col(j) = arma::exp(std::log(d.lower) + u * (std::log(d.upper) - std::log(d.lower)));
        else
            points.col(j) = d.lower + u * (d.upper - d.lower);
        if (d.integer) points.col(j) = arma::clamp(arma::round(points.col(j)), std::ceil(d.lower), std::floor(d.upper));
    }
    return points;
}

arma::mat SearchSpace::sample(std::size_t count, ExperimentRng& rng) const {
    if (finite_) {
        arma::mat out(count, dim());
        for (std::size_t i = 0; i < count; ++i) out.row(i) = candidates_.row(rng.index(candidates_.n_rows));
        return out;
    }
    return from_unit(rng.uniform(count, dim()));
}

arma::mat SearchSpace::grid(std::size_t per_dimension) const {
    if (finite_) return candidates_;
    if (per_dimension < 2) throw ValidationError("search space: a grid needs at least 2 levels per dimension");
    const double total = std::pow(static_cast<double>(per_dimension), static_cast<double>(dim()));
    if (total > 5.0e7)
        throw ValidationError(
            fmt::format("search space: a grid of {} levels in {} dimensions has {:g} points; too many", per_dimension,
                        dim(), total));
    const auto count = static_cast<std::size_t>(total);
    arma::mat unit(count, dim());
    for (std::size_t i = 0; i < count; ++i) {
        std::size_t index = i;
        for (std::size_t j = 0; j < dim(); ++j) {
            unit(i, j) = static_cast<double>(index % per_dimension) / static_cast<double>(per_dimension - 1);
            index /= per_dimension;
        }
    }
    return from_unit(unit);
}

arma::mat SearchSpace::clamp(const arma::mat& points) const {
    arma::mat out = points;
    for (std::size_t j = 0; j < dim(); ++j)
        out.col(j) = arma::clamp(points.col(j), dimensions_[j].lower, dimensions_[j].upper);
    return out;
}

arma::rowvec SearchSpace::centre() const { return from_unit(arma::mat(1, dim(), arma::fill::value(0.5))); }

void SearchSpace::check_contains(const arma::mat& points, const std::string& context) const {
    if (points.n_cols != dim())
        throw ValidationError(fmt::format("{}: points have {} columns, the search space has dimension {}", context,
                                          points.n_cols, dim()));
    for (std::size_t i = 0; i < points.n_rows; ++i)
        for (std::size_t j = 0; j < dim(); ++j) {
            const double v = points(i, j);
            const auto& d = dimensions_[j];
            // A relative slack absorbs the rounding of log-scale round trips.
            const double slack = 1e-12 * std::max(1.0, std::max(std::fabs(d.lower), std::fabs(d.upper)));
            if (!std::isfinite(v) || v < d.lower - slack || v > d.upper + slack)
                throw ValidationError(
                    fmt::format("{}: point {} has {} = {} outside [{}, {}]", context, i, d.name, v, d.lower, d.upper));
        }
}

}  // namespace dpbo
