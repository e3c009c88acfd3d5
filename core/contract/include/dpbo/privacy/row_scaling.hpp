#pragma once
// The curator's map from a dataset to a row release's units. PO-GP-UCB normalises the inputs to a
// maximal row norm of 25 (Kharkovskii, Dai & Low 2020, §4) and its guarantee covers one row moving by
// at most 1 in L2 there. Computing that scale from the rows would itself release something about
// them, so the map is built from the column bounds the data owner declares: column j goes affinely
// from [lower_j, upper_j] onto [−a, a] with a = norm_bound/√d, which puts every row in the L2 ball of
// radius norm_bound. Declared bounds are public; the rows are never read to build the map.
#include <string>
#include <vector>

#include <armadillo>

namespace dpbo {

class SearchSpace;

class RowScaling {
public:
    // Throws ValidationError naming `owner` for a candidate set whose bounds were not declared
    // (SearchSpace::candidates_within), a box, or a norm_bound that is not finite and > 0.
    RowScaling(const SearchSpace& space, double norm_bound, const std::string& owner);

    // The rows in the release's units; they must lie within the declared bounds.
    arma::mat apply(const arma::mat& rows) const;

    double norm_bound() const { return norm_bound_; }
    // How far column j of one row may move, in the user's units, for the row to move by
    // `sensitivity` in the release's units when no other column moves: sensitivity·half_width_j/a.
    arma::rowvec covered_change(double sensitivity) const;
    // The protected change in words and the user's units: "one row moving within the ellipsoid
    // Σ_j (Δx_j / c_j)² ≤ 1 in the data's own units, c = (funded_amnt_inv: 1212, int_rate: 0.6928,
    // ...)".
    std::string describe_covered_change(double sensitivity) const;
    // "column j ↦ (x_j − centre_j)·a/half_width_j from the declared bounds [...]": the map, for the
    // statement's assumptions.
    std::string describe() const;

private:
    std::vector<std::string> names_;
    arma::rowvec lower_;
    arma::rowvec centre_;
    arma::rowvec half_width_;
    double norm_bound_ = 0.0;
    double column_half_range_ = 0.0;  // a
};

}  // namespace dpbo
