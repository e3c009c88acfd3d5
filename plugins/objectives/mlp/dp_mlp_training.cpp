#include "dp_mlp_training.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::mlp {

// The noise generator is seeded before the first lot is drawn, as DPareto's oracle always did, so
// its values stay what they were.
StatisticalRandomness::StatisticalRandomness(std::mt19937_64& engine) : engine_(engine), noise_engine_(engine()) {}

std::size_t StatisticalRandomness::pick(std::size_t first, std::size_t count) {
    std::uniform_int_distribution<std::size_t> uniform(first, count - 1);
    return uniform(engine_);
}

// ~10⁵ normals per step would cost more than the lot's matrix products at small m: Boost's ziggurat
// on Boost's header-only MT19937-64 (the same generator as std::mt19937_64, inlined) draws one in
// ~4 ns, against ~10 ns for std::normal_distribution's polar method on the engine.
void StatisticalRandomness::privatise(arma::fvec& gradient, std::size_t lot, double noise_scale) {
    const float inverse_lot = 1.0f / static_cast<float>(lot);
    const auto scale = static_cast<float>(noise_scale);
    float* g = gradient.memptr();
    for (arma::uword k = 0; k < gradient.n_elem; ++k) g[k] = g[k] * inverse_lot + scale * normal_(noise_engine_);
}

std::size_t SecureRandomness::pick(std::size_t first, std::size_t count) {
    return first + static_cast<std::size_t>(privacy::uniform_below(count - first, noise_));
}

void SecureRandomness::privatise(arma::fvec& gradient, std::size_t lot, double noise_scale) {
    const arma::vec mean = arma::conv_to<arma::vec>::from(gradient) / static_cast<double>(lot);
    gradient = arma::conv_to<arma::fvec>::from(privacy::gaussian_release(mean, noise_scale, noise_));
}

TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, std::mt19937_64& engine) {
    StatisticalRandomness randomness(engine);
    return train(architecture, std::move(theta), images, labels, settings, randomness);
}

TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, TrainingRandomness& randomness) {
    const std::size_t n = images.n_cols;
    const std::size_t m = settings.lot.lot_size;
    const std::size_t steps = settings.lot.steps(n);
    const auto clipping_norm = static_cast<float>(settings.lot.clipping_norm);
    // Algorithm 3, line 4: (2L/m)·N(0, σ²I) on the clipped mean.
    const double noise_scale =
        2.0 * settings.lot.clipping_norm / static_cast<double>(m) * settings.lot.noise_multiplier;
    const auto learning_rate = static_cast<float>(settings.lot.learning_rate);
    std::vector<arma::uword> pool(n);
    std::iota(pool.begin(), pool.end(), arma::uword{0});
    arma::uvec lot(m);
    arma::fvec first_moment, second_moment;
    if (settings.optimiser == Optimiser::Adam) {
        first_moment.zeros(theta.n_elem);
        second_moment.zeros(theta.n_elem);
    }
    constexpr float kBeta1 = 0.9f, kBeta2 = 0.999f, kKappa = 1e-8f;  // Algorithm 4's constants
    double beta1_power = 1.0, beta2_power = 1.0;
    for (std::size_t step = 0; step < steps; ++step) {
        // A uniformly random m-subset: the first m entries of a partial Fisher–Yates shuffle.
        for (std::size_t i = 0; i < m; ++i) {
            std::swap(pool[i], pool[randomness.pick(i, n)]);
            lot(i) = pool[i];
        }
        ClippedLotGradient lot_gradient =
            clipped_gradient_sum(architecture, theta, images.cols(lot), labels.elem(lot), clipping_norm);
        if (!lot_gradient.norms.is_finite() && randomness.stops_on_overflow()) return {std::move(theta), true};
        arma::fvec& gradient = lot_gradient.sum;
        randomness.privatise(gradient, m, noise_scale);
        if (settings.optimiser == Optimiser::Sgd) {
            theta -= learning_rate * gradient;
            continue;
        }
        beta1_power *= kBeta1;
        beta2_power *= kBeta2;
        first_moment = kBeta1 * first_moment + (1.0f - kBeta1) * gradient;
        second_moment = kBeta2 * second_moment + (1.0f - kBeta2) * arma::square(gradient);
        theta -= learning_rate * (first_moment / static_cast<float>(1.0 - beta1_power)) /
                 (arma::sqrt(second_moment / static_cast<float>(1.0 - beta2_power)) + kKappa);
    }
    const bool diverged = !theta.is_finite();
    return {std::move(theta), diverged};
}

}  // namespace dpbo::mlp
