#include "dpbo/privacy/row_scaling.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/space.hpp"

namespace dpbo {

namespace {
constexpr double kLargestNormBound = 1e150;
}  // namespace

RowScaling::RowScaling(const SearchSpace& space, double norm_bound, const std::string& owner) {
    if (!space.is_finite())
        throw ValidationError(
            fmt::format("{}: a row release needs an objective over a finite set of rows; the "
                        "objective's space is a box",
                        owner));
    if (!space.bounds_declared())
        throw ValidationError(fmt::format(
            "{}: the objective's rows come with no declared column bounds, only their own minimum and maximum; "
            "scaling by those would release them. Expected an objective that declares data-independent bounds "
            "(e.g. `table` with its `bounds` parameter)",
            owner));
    if (!std::isfinite(norm_bound) || norm_bound <= 0.0)
        throw ValidationError(fmt::format("{}: norm_bound = {}; expected a finite number > 0", owner, norm_bound));
    // The releases square the scaled rows (norms, projections, singular values): past 1e150 the squares
    // overflow and every released row came out NaN ("released rows: ... with a NaN or infinite entry").
    if (norm_bound > kLargestNormBound)
        throw ValidationError(
            fmt::format("{}: norm_bound = {} is too large: the scaled rows' squared norms would "
                        "overflow the double range; allowed: norm_bound in (0, {:g}]",
                        owner, norm_bound, kLargestNormBound));
    names_ = space.names();
    lower_ = space.lower();
    centre_ = 0.5 * (space.lower() + space.upper());
    half_width_ = 0.5 * (space.upper() - space.lower());
    norm_bound_ = norm_bound;
    column_half_range_ = norm_bound / std::sqrt(static_cast<double>(names_.size()));
}

arma::mat RowScaling::apply(const arma::mat& rows) const {
    arma::mat scaled = rows;
    scaled.each_row() -= centre_;
    scaled.each_row() %= column_half_range_ / half_width_;
    return scaled;
}

arma::rowvec RowScaling::covered_change(double sensitivity) const {
    return sensitivity * half_width_ / column_half_range_;
}

std::string RowScaling::describe_covered_change(double sensitivity) const {
    const arma::rowvec c = covered_change(sensitivity);
    std::vector<std::string> axes;
    for (std::size_t j = 0; j < names_.size(); ++j) axes.push_back(fmt::format("{}: {:.4g}", names_[j], c(j)));
    return fmt::format(
        "one row changing within the ellipsoid Σ_j (Δx_j / c_j)² ≤ 1 in the data's own units, "
        "c = ({}); a change of one column alone by more than its c_j is not covered",
        fmt::join(axes, ", "));
}

std::string RowScaling::describe() const {
    std::vector<std::string> columns;
    for (std::size_t j = 0; j < names_.size(); ++j)
        columns.push_back(fmt::format("{} [{:.6g}, {:.6g}]", names_[j], lower_(j), lower_(j) + 2.0 * half_width_(j)));
    return fmt::format(
        "each column mapped affinely from its declared bounds onto [−{:.6g}, {:.6g}] (rows of L2 norm ≤ "
        "{:.6g}); the bounds are declared by the data owner, not read from the rows: {}",
        column_half_range_, column_half_range_, norm_bound_, fmt::join(columns, ", "));
}

}  // namespace dpbo
