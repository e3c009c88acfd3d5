#include "dp_mlp_training.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <utility>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>

namespace dpbo::mlp {

TrainingOutcome train(const Architecture& architecture, arma::fvec theta, const arma::fmat& images,
                      const arma::uvec& labels, const TrainingSettings& settings, std::mt19937_64& engine) {
    const std::size_t n = images.n_cols;
    const std::size_t m = settings.lot.lot_size;
    const std::size_t steps = settings.lot.steps(n);
    const auto clipping_norm = static_cast<float>(settings.lot.clipping_norm);
    // Algorithm 3, line 4: (2L/m)·N(0, σ²I) on the clipped mean.
    const auto noise_scale =
        static_cast<float>(2.0 * settings.lot.clipping_norm / static_cast<double>(m) * settings.lot.noise_multiplier);
    const float inverse_lot = 1.0f / static_cast<float>(m);
    const auto learning_rate = static_cast<float>(settings.lot.learning_rate);
    // ~10⁵ normals per step would cost more than the lot's matrix products at small m: Boost's
    // ziggurat on Boost's header-only MT19937-64 (the same generator as std::mt19937_64, inlined)
    // draws one in ~4 ns, against ~10 ns for std::normal_distribution's polar method on the engine.
    boost::random::mt19937_64 noise_engine(engine());
    boost::random::normal_distribution<float> normal;
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
            std::uniform_int_distribution<std::size_t> pick(i, n - 1);
            std::swap(pool[i], pool[pick(engine)]);
            lot(i) = pool[i];
        }
        ClippedLotGradient lot_gradient =
            clipped_gradient_sum(architecture, theta, images.cols(lot), labels.elem(lot), clipping_norm);
        if (!lot_gradient.norms.is_finite()) return {std::move(theta), true};
        arma::fvec& gradient = lot_gradient.sum;
        float* g = gradient.memptr();
        for (arma::uword k = 0; k < gradient.n_elem; ++k)
            g[k] = g[k] * inverse_lot + noise_scale * normal(noise_engine);
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
