#pragma once
// DPareto's private learner for the MNIST MLP (Avent et al. 2020, Algorithms 3 and 4 with
// per-example clipping of the whole parameter vector): each step takes a lot S of exactly m images
// drawn without replacement, clips every per-example gradient ∇θ ℓ_i to norm L, and uses
// g = (1/m) Σ_{i∈S} clip_L(∇θ ℓ_i) + (2L/m)·N(0, σ²I) — 2L/m is the L2 sensitivity of the clipped
// mean when one image is replaced. DP-SGD steps θ ← θ − ηg; DP-Adam feeds g to Adam (β₁ = 0.9,
// β₂ = 0.999, κ = 1e-8). ⌊n/m⌋ lots per epoch, T epochs.
#include <cstddef>
#include <random>

#include <armadillo>

#include "mlp_network.hpp"

namespace mlp {

enum class Optimiser { Sgd, Adam };

struct TrainingSettings {
    Optimiser optimiser = Optimiser::Sgd;
    std::size_t epochs = 1;     // T
    std::size_t lot_size = 64;  // m
    double learning_rate = 0.1;
    double noise_multiplier = 1.0;  // σ (the hyperparameter is the noise variance σ²)
    double clipping_norm = 1.0;     // L
};

// T⌊n/m⌋: the steps the accountant composes.
std::size_t training_steps(std::size_t images, const TrainingSettings& settings);

struct TrainingOutcome {
    arma::fvec theta;
    // A step's gradient norms were not finite (a learning rate too large for the network): training
    // stopped there, and the network's logits are not finite, so accuracy() counts every image wrong.
    bool diverged = false;
};

// θ after training_steps() noisy steps from `theta` on the images' columns. `engine` draws the lots
// and seeds the noise's generator; both are statistical samplers (the noise by Boost's ziggurat):
// the noise measures the learner's utility; dpbo releases no model.
TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, std::mt19937_64& engine);

}  // namespace mlp
