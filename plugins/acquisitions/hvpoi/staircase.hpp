#pragma once
// The two quantities of the hypervolume-based probability of improvement (Couckuyt, Deschrijver &
// Dhaene 2014; DPareto's eq. 1–3) for two outputs, both in the maximisation sense: the
// probability that a point with independent Gaussian outputs is not dominated by a front, and the
// hypervolume a point adds to a front.
#include <armadillo>

namespace dpbo::hvpoi {

// The front's rows sorted by output 0 decreasing (so output 1 increasing along a non-dominated
// front), ties by output 1 decreasing.
arma::mat sorted_staircase(const arma::mat& front);

// P(y not dominated by the front), y_j ~ N(mean_j, variance_j) independent, for a staircase from
// sorted_staircase (m × 2, maximisation). With a_1 > … > a_m and b_1 < … < b_m the region no front
// point dominates is the disjoint union of the cells
//   (a_1, ∞) × ℝ,   (a_{i+1}, a_i] × (b_i, ∞) for i < m,   (−∞, a_m] × (b_m, ∞),
// so the probability is exactly Σ over cells of P(y_0 ∈ I_0)·P(y_1 ∈ I_1) (eq. 1 in 2-D). A zero
// variance makes the output a point mass. An empty front: 1.
double nondominated_probability(const arma::mat& staircase, double mean0, double variance0, double mean1,
                                double variance1);

// HV(front ∪ {point}) − HV(front) w.r.t. `reference` (all three in the maximisation sense):
// the area of the box between the reference and the point that the front does not already cover
// (Δ_PF of DPareto's eq. 2). Zero unless the point is strictly better than the reference in both.
double exclusive_hypervolume(const arma::mat& staircase, const arma::rowvec& point, const arma::rowvec& reference);

}  // namespace dpbo::hvpoi
