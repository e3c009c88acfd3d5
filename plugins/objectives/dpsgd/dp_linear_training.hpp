#pragma once
// DPareto's private learners for linear models on sparse rows (Avent et al. 2020, Algorithms 3 and
// 4): each step takes a lot S of exactly m rows sampled without replacement, clips every per-row
// gradient to norm L, and uses g = (1/m) Σ_{j∈S} clip_L(∇ℓ(z_j, w)) + (2L/m)·N(0, σ²I) — 2L/m is the
// L2 sensitivity of the clipped mean when one row is replaced. DP-SGD steps w ← w − ηg; DP-Adam
// feeds g to Adam (β₁ = 0.9, β₂ = 0.999, κ = 1e-8).
#include <cstddef>
#include <random>

#include <armadillo>

#include "dpbo/random.hpp"
#include "libsvm_reader.hpp"
#include "lot_oracle.hpp"

namespace dpbo::dpsgd {

enum class Model { LogisticRegression, LinearSvm };
enum class Optimiser { Sgd, Adam };

struct TrainingSettings {
    dpbo::plugin_data::LotHyperparameters lot;  // T, m, η, σ, L
    Model model = Model::LogisticRegression;
    Optimiser optimiser = Optimiser::Sgd;
};

// The weights after lot.steps(rows) noisy steps from w = 0. `engine` draws the lots and the noise
// (a statistical sampler: the noise measures the learner's utility; dpbo releases no model).
arma::vec train(const dpbo::plugin_data::SparseRows& rows, std::size_t features, const TrainingSettings& settings,
                std::mt19937_64& engine);

// The same training as a private learner (a trial, PrivateTrials): the lots drawn by the secure
// layer's uniform integers and the noise by its Gaussian release, both from `noise`.
arma::vec train_private(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                        const TrainingSettings& settings, dpbo::PrivacyNoiseSource& noise);

// The clipped per-row gradients' mean over `lot` (no noise) at w: what a step privatises.
arma::vec clipped_mean_gradient(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                                const std::vector<std::size_t>& lot, const arma::vec& w,
                                const TrainingSettings& settings);

}  // namespace dpbo::dpsgd
