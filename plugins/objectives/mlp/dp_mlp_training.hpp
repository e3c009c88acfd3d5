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
#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>

#include "lot_oracle.hpp"
#include "mlp_network.hpp"

namespace dpbo {
class PrivacyNoiseSource;
}

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

// Where a training's random choices come from: its lots and the Gaussian noise on each lot's mean.
class TrainingRandomness {
public:
    virtual ~TrainingRandomness() = default;
    // Uniform on first .. count − 1: the next slot of a partial Fisher–Yates shuffle.
    virtual std::size_t pick(std::size_t first, std::size_t count) = 0;
    // gradient ← gradient / lot + N(0, noise_scale² I): the clipped sum made a noisy mean.
    virtual void privatise(arma::fvec& gradient, std::size_t lot, double noise_scale) = 0;
    // Whether a lot whose gradient overflows ends the training (DPareto's oracle, whose values stay
    // what they were), or its overflowing examples add nothing and the training goes on (a private
    // trial: stopping would be a data-dependent release its event does not cover, while an example
    // that adds nothing stays within the clipping bound the event's sensitivity rests on).
    virtual bool stops_on_overflow() const { return true; }

protected:
    TrainingRandomness() = default;
    TrainingRandomness(const TrainingRandomness&) = default;
    TrainingRandomness& operator=(const TrainingRandomness&) = default;
};

// DPareto's oracle: statistical samplers (the lots from `engine`, the noise by Boost's ziggurat
// seeded from it), since that noise measures the learner's utility only and nothing is released.
class StatisticalRandomness final : public TrainingRandomness {
public:
    explicit StatisticalRandomness(std::mt19937_64& engine);
    std::size_t pick(std::size_t first, std::size_t count) override;
    void privatise(arma::fvec& gradient, std::size_t lot, double noise_scale) override;

private:
    std::mt19937_64& engine_;
    boost::random::mt19937_64 noise_engine_;
    boost::random::normal_distribution<float> normal_;
};

// A private trial: the lots by uniform_below and the noise by gaussian_release, both from the
// secure layer's `noise`, so the subsampled Gaussian's guarantee holds for the draws made. The mean
// is formed and released in double precision, then rounded to the network's single precision
// (post-processing).
class SecureRandomness final : public TrainingRandomness {
public:
    explicit SecureRandomness(PrivacyNoiseSource& noise) : noise_(noise) {}
    std::size_t pick(std::size_t first, std::size_t count) override;
    void privatise(arma::fvec& gradient, std::size_t lot, double noise_scale) override;
    bool stops_on_overflow() const override { return false; }

private:
    PrivacyNoiseSource& noise_;
};

// θ after lot.steps(rows) noisy steps from `theta` on the images' columns, its lots and noise from
// `randomness`.
TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, TrainingRandomness& randomness);
// The same with StatisticalRandomness(engine): DPareto's oracle; dpbo releases no model.
TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, std::mt19937_64& engine);

}  // namespace dpbo::mlp
