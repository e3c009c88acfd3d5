#pragma once
// Pareto fronts of several outputs, each minimised or maximised by its own sense: the
// non-dominated set (the several-output BO loop's "incumbent") and, for two outputs, the
// hypervolume a front dominates (DPareto's measure of progress).
#include <vector>

#include <armadillo>

#include "dpbo/objective.hpp"

namespace dpbo {

// Row indices of `values` (n × k) that no other row dominates, in increasing order. Row a dominates
// row b when a is at least as good in every column and strictly better in one, "good" per the
// column's sense (senses.size() == k). Rows with equal values do not dominate each other, so
// duplicates of a non-dominated row are all kept. Throws ValidationError on a sense count other
// than k, or on NaN.
arma::uvec non_dominated(const arma::mat& values, const std::vector<Sense>& senses);

// The area that the rows of `front` (m × 2) dominate, bounded by `reference` (1 × 2, a point worse
// than every front point of interest in both outputs), in the outputs' own units and senses. Rows
// that are not strictly better than the reference in both outputs add nothing; the rows need not be
// non-dominated (dominated rows add nothing either). Throws ValidationError unless there are two
// columns and two senses, or on a non-finite entry.
double hypervolume_2d(const arma::mat& front, const arma::rowvec& reference, const std::vector<Sense>& senses);

// +1 for maximised, −1 for minimised outputs: multiplying column j by it gives the maximisation
// sense the BO loop's surrogate models.
arma::rowvec maximisation_signs(const std::vector<Sense>& senses);

}  // namespace dpbo
