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
#include "dpbo/parameters.hpp"
#include "dpbo/space.hpp"
#include "fixed_lot_epsilon.hpp"

namespace dpbo::plugin_data {

// What the fourth hyperparameter, with Table 1's range [0.1, 16], sets. The paper's text calls it the
// noise variance σ² (Tables 1, 3–4, Algorithms 3–4: noise (2L/m)·N(0, σ²I)), so σ = √x; the authors'
// code (amzn/differential-privacy-bayesian-optimization, dpareto/optimizers/dp_sgd.py and
// utils/privacy_calculator.py) uses the same range as the noise multiplier z itself, σ = x — a
// problem with four times more noise at the top of the range. The dimension is named after it
// (`noise_variance` or `noise_multiplier`), so a distribution or a result cannot mix the two.
enum class NoiseHyperparameter { Variance, Multiplier };

// The `noise_hyperparameter` choice (default: the paper's text) and reading it back.
void add_noise_hyperparameter_parameter(ParameterSchema& schema);
NoiseHyperparameter noise_hyperparameter(const ParameterSet& parameters);
// The fourth dimension of the space: its name under `reading`, range [0.1, 16].
Dimension noise_dimension(NoiseHyperparameter reading);

// A point of (epochs, lot_size, learning_rate, noise_variance | noise_multiplier, clipping_norm).
struct LotHyperparameters {
    std::size_t epochs = 1;         // T
    std::size_t lot_size = 1;       // m
    double learning_rate = 0.0;     // η
    double noise_multiplier = 0.0;  // σ: √x of a noise variance x, or x itself (NoiseHyperparameter)
    double clipping_norm = 0.0;     // L

    // T⌊n/m⌋ lots of m of the n training rows: the steps the accountant composes.
    std::size_t steps(std::size_t rows) const { return epochs * (rows / lot_size); }
};

// Row `index` of a batch: integer epochs ≥ 1, an integer lot size in 1..rows, and finite positive
// learning rate, noise hyperparameter and clipping norm; otherwise a RunError naming `owner` and the point.
LotHyperparameters lot_hyperparameters(const arma::rowvec& point, arma::uword index, std::size_t rows,
                                       NoiseHyperparameter reading, const std::string& owner);

// ε and the error of each point of `points` (b × 5): ε from `epsilon` for T⌊rows/m⌋ steps; the error
// 1 − mean of `utilities(point)` (the R repetitions' test accuracies), with the best and worst
// repetition in Evaluations::auxiliary (repetition_auxiliary_outputs).
Evaluations evaluate_lot_oracle(const arma::mat& points, std::size_t rows, NoiseHyperparameter reading,
                                const std::string& owner, FixedLotEpsilon& epsilon,
                                const std::function<std::vector<double>(const LotHyperparameters&)>& utilities);

// The two outputs every privacy–utility oracle has: epsilon and error, both minimised.
std::vector<Output> privacy_utility_outputs();

}  // namespace dpbo::plugin_data
