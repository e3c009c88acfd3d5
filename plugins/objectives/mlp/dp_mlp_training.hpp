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

#include "lot_oracle.hpp"
#include "mlp_network.hpp"

namespace dpbo::mlp {

enum class Optimiser { Sgd, Adam };

struct TrainingSettings {
    dpbo::plugin_data::LotHyperparameters lot;  // T, m, η, σ, L
    Optimiser optimiser = Optimiser::Sgd;
};

struct TrainingOutcome {
    arma::fvec theta;
    // A step's gradient norms were not finite (a learning rate too large for the network): training
    // stopped there, and the network's logits are not finite, so accuracy() counts every image wrong.
    bool diverged = false;
};

// θ after lot.steps(rows) noisy steps from `theta` on the images' columns. `engine` draws the lots
// and seeds the noise's generator; both are statistical samplers (the noise by Boost's ziggurat):
// the noise measures the learner's utility; dpbo releases no model.
TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, std::mt19937_64& engine);

}  // namespace dpbo::mlp
