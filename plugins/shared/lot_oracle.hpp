#pragma once
// What DPareto's DP-SGD oracles (dpsgd on Adult, mlp on MNIST) share: the five hyperparameters of
// Table 1 read from a point and checked, and the evaluation of a batch — ε by FixedLotEpsilon for
// T⌊n/m⌋ steps, the error as the mean over R repetitions, and the best and worst repetition as
// auxiliary outputs. Each oracle supplies its training.
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "fixed_lot_epsilon.hpp"

namespace dpbo::plugin_data {

// A point of (epochs, lot_size, learning_rate, noise_variance, clipping_norm).
struct LotHyperparameters {
    std::size_t epochs = 1;         // T
    std::size_t lot_size = 1;       // m
    double learning_rate = 0.0;     // η
    double noise_multiplier = 0.0;  // σ (the hyperparameter is the noise variance σ²)
    double clipping_norm = 0.0;     // L

    // T⌊n/m⌋ lots of m of the n training rows: the steps the accountant composes.
    std::size_t steps(std::size_t rows) const { return epochs * (rows / lot_size); }
};

// Row `index` of a batch: integer epochs ≥ 1, an integer lot size in 1..rows, and finite positive
// learning rate, noise variance and clipping norm; otherwise a RunError naming `owner` and the point.
LotHyperparameters lot_hyperparameters(const arma::rowvec& point, arma::uword index, std::size_t rows,
                                       const std::string& owner);

// ε and the error of each point of `points` (b × 5): ε from `epsilon` for T⌊rows/m⌋ steps; the error
// 1 − mean of `utilities(point)` (the R repetitions' test accuracies), with the best and worst
// repetition in Evaluations::auxiliary (repetition_auxiliary_outputs).
Evaluations evaluate_lot_oracle(const arma::mat& points, std::size_t rows, const std::string& owner,
                                FixedLotEpsilon& epsilon,
                                const std::function<std::vector<double>(const LotHyperparameters&)>& utilities);

// The two outputs every privacy–utility oracle has: epsilon and error, both minimised.
std::vector<Output> privacy_utility_outputs();

}  // namespace dpbo::plugin_data
