#pragma once
// The "bolt-on" learner of Wu et al. 2017 (Algorithm 2, strongly convex case) that DPareto uses as
// its first illustrative example: permutation-based projected SGD on the L2-regularised logistic
// loss, batch size 1, k passes, step η_t = min(1/β, 1/(γt)), iterates projected onto the ball of
// radius R = 1/γ. Its L2 sensitivity is 2L/(γn) with L = 1 + γR = 2 for rows of norm ≤ 1
// (Wu et al., Thm. 5 / Cor. 6), which output perturbation then hides.
#include <cstddef>
#include <random>

#include <armadillo>

#include "libsvm_reader.hpp"

namespace dpbo::bolt_on_logreg {

struct ProjectedSgdSettings {
    double regularisation = 1e-3;  // γ
    std::size_t passes = 10;       // k (DPareto: 10 epochs, batch size 1)
};

// The trained weights; each pass visits the rows in a fresh random order from `engine`.
arma::vec train_projected_sgd(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                              const ProjectedSgdSettings& settings, std::mt19937_64& engine);

// L2 sensitivity of the trained weights between datasets of n rows differing in one row: 4/(γn).
double weight_sensitivity(double regularisation, std::size_t rows);

}  // namespace dpbo::bolt_on_logreg
