#pragma once
// Branin-Hoo (Dixon & Szegő 1978), shared by the objectives `branin` (minimised over its box or a
// grid of it) and `branin-grid` (−Branin maximised over a grid, PO-GP-UCB's sign), so the formula
// and its constants live in one place.
#include <armadillo>

#include "dpbo/space.hpp"

namespace dpbo::branin_function {

// The global minimum, 5/(4π), taken at (−π, 12.275), (π, 2.275) and (3π, 2.475).
double minimum_value();
arma::mat minimisers();  // 3 × 2

// The box [−5, 10] × [0, 15], dimensions named x1 and x2.
SearchSpace box();

// Branin-Hoo at each row of an n × 2 matrix.
arma::vec values(const arma::mat& points);

}  // namespace dpbo::branin_function
