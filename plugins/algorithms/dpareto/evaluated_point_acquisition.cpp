#include "evaluated_point_acquisition.hpp"

#include <algorithm>
#include <cmath>

namespace dpbo::dpareto {

namespace {

// A point counts as evaluated when it lies within this distance of an evaluated one in every unit-cube
// coordinate: a round trip through the space's log scale moves a coordinate by a few ulps.
constexpr double kSamePointTolerance = 1e-9;

bool same_point(const arma::rowvec& a, const arma::rowvec& b) {
    for (arma::uword j = 0; j < a.n_elem; ++j)
        if (std::abs(a(j) - b(j)) > kSamePointTolerance) return false;
    return true;
}

}  // namespace

arma::vec EvaluatedPointAcquisition::score(const Surrogate& model, const arma::mat& points,
                                           const AcquisitionContext& context) const {
    const arma::mat scored = round_integers_ ? space_.to_unit(space_.from_unit(points)) : points;
    arma::vec scores = inner_->score(model, scored, context);
    if (evaluated_ == nullptr || evaluated_->n_rows == 0) return scores;
    if (evaluated_count_ != evaluated_->n_rows) {
        const arma::mat unit = space_.to_unit(*evaluated_);
        evaluated_unit_ = unit.rows(arma::sort_index(unit.col(0)));
        evaluated_count_ = evaluated_->n_rows;
    }
    // The sorted first coordinates, searched in place (column-major storage keeps a column contiguous).
    const double* first = evaluated_unit_.colptr(0);
    const double* end = first + evaluated_unit_.n_rows;
    for (arma::uword i = 0; i < scored.n_rows; ++i) {
        const double x = scored(i, 0);
        const double* from = std::lower_bound(first, end, x - kSamePointTolerance);
        for (const double* it = from; it != end && *it <= x + kSamePointTolerance; ++it)
            if (same_point(scored.row(i), evaluated_unit_.row(static_cast<arma::uword>(it - first)))) {
                scores(i) = 0.0;
                break;
            }
    }
    return scores;
}

}  // namespace dpbo::dpareto
