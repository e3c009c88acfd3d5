#include "dp_linear_training.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::dpsgd {

namespace {

double row_margin(const dpbo::plugin_data::SparseRows& rows, std::size_t r, const arma::vec& w) {
    double margin = 0.0;
    for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) margin += w[rows.index[k]] * rows.value[k];
    return margin;
}

// ‖x_r‖ for every row, computed once per training rather than once per visit.
std::vector<double> row_norms(const dpbo::plugin_data::SparseRows& rows) {
    std::vector<double> norms(rows.rows());
    for (std::size_t r = 0; r < rows.rows(); ++r) {
        double squared = 0.0;
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) squared += rows.value[k] * rows.value[k];
        norms[r] = std::sqrt(squared);
    }
    return norms;
}

// ∇ℓ(z, w) = c·x for a linear model: c = −y σ(−y w·x) for the logistic loss, −y·[y w·x < 1] for
// the hinge loss (its subgradient).
double gradient_coefficient(Model model, double label, double margin) {
    const double label_margin = label * margin;
    if (model == Model::LinearSvm) return label_margin < 1.0 ? -label : 0.0;
    const double slope = label_margin > 0 ? std::exp(-label_margin) / (1.0 + std::exp(-label_margin))
                                          : 1.0 / (1.0 + std::exp(label_margin));
    return -label * slope;
}

// Adds clip_L(c·x_r)/m to `sum` for each r in the lot.
// The lot's rows are scattered over the training set, so each row's first touch misses the cache;
// fetching a few rows ahead hides most of that latency (the training's largest cost).
constexpr std::size_t kPrefetchRowsAhead = 4;

void add_clipped_gradients(const dpbo::plugin_data::SparseRows& rows, const std::vector<double>& norms,
                           const std::size_t* lot, std::size_t m, const arma::vec& w, const TrainingSettings& settings,
                           arma::vec& sum) {
    for (std::size_t i = 0; i < m; ++i) {
        if (i + kPrefetchRowsAhead < m) {
            const std::size_t ahead = rows.starts[lot[i + kPrefetchRowsAhead]];
            __builtin_prefetch(&rows.index[ahead]);
            __builtin_prefetch(&rows.value[ahead]);
            __builtin_prefetch(&rows.value[ahead] + 8);
        }
        const std::size_t r = lot[i];
        const double c = gradient_coefficient(settings.model, rows.labels[r], row_margin(rows, r, w));
        const double norm = std::abs(c) * norms[r];
        const double clipped = norm > settings.lot.clipping_norm ? c * settings.lot.clipping_norm / norm : c;
        const double weight = clipped / static_cast<double>(m);
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) sum[rows.index[k]] += weight * rows.value[k];
    }
}

}  // namespace

arma::vec clipped_mean_gradient(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                                const std::vector<std::size_t>& lot, const arma::vec& w,
                                const TrainingSettings& settings) {
    arma::vec sum(features, arma::fill::zeros);
    add_clipped_gradients(rows, row_norms(rows), lot.data(), lot.size(), w, settings, sum);
    return sum;
}

namespace {

// Algorithm 3 (DP-SGD) or 4 (DP-Adam), with the lot's indices drawn by `pick(i, n)` (uniform in
// i..n−1) and the noise added to the clipped mean by `add_noise(gradient, scale)`.
template <class Pick, class AddNoise>
arma::vec train_with(const dpbo::plugin_data::SparseRows& rows, std::size_t features, const TrainingSettings& settings,
                     Pick pick, AddNoise add_noise) {
    const std::size_t n = rows.rows();
    const std::size_t m = settings.lot.lot_size;
    const std::size_t steps = settings.lot.steps(n);
    // Algorithm 3, line 4: (2L/m)·N(0, σ²I).
    const double noise_scale =
        2.0 * settings.lot.clipping_norm / static_cast<double>(m) * settings.lot.noise_multiplier;
    const std::vector<double> norms = row_norms(rows);
    std::vector<std::size_t> pool(n);
    std::iota(pool.begin(), pool.end(), std::size_t{0});
    arma::vec w(features, arma::fill::zeros);
    arma::vec gradient(features);
    arma::vec first_moment(features, arma::fill::zeros), second_moment(features, arma::fill::zeros);
    constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kKappa = 1e-8;  // Algorithm 4's constants
    double beta1_power = 1.0, beta2_power = 1.0;
    for (std::size_t step = 0; step < steps; ++step) {
        // A uniformly random m-subset: the first m entries of a partial Fisher–Yates shuffle.
        for (std::size_t i = 0; i < m; ++i) std::swap(pool[i], pool[pick(i, n)]);
        gradient.zeros();
        add_clipped_gradients(rows, norms, pool.data(), m, w, settings, gradient);
        add_noise(gradient, noise_scale);
        if (settings.optimiser == Optimiser::Sgd) {
            w -= settings.lot.learning_rate * gradient;
            continue;
        }
        beta1_power *= kBeta1;
        beta2_power *= kBeta2;
        first_moment = kBeta1 * first_moment + (1.0 - kBeta1) * gradient;
        second_moment = kBeta2 * second_moment + (1.0 - kBeta2) * arma::square(gradient);
        w -= settings.lot.learning_rate * (first_moment / (1.0 - beta1_power)) /
             (arma::sqrt(second_moment / (1.0 - beta2_power)) + kKappa);
    }
    return w;
}

}  // namespace

arma::vec train(const dpbo::plugin_data::SparseRows& rows, std::size_t features, const TrainingSettings& settings,
                std::mt19937_64& engine) {
    std::normal_distribution<double> normal;
    return train_with(
        rows, features, settings,
        [&](std::size_t i, std::size_t n) { return std::uniform_int_distribution<std::size_t>(i, n - 1)(engine); },
        [&](arma::vec& gradient, double scale) {
            for (double& entry : gradient) entry += scale * normal(engine);
        });
}

arma::vec train_private(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                        const TrainingSettings& settings, dpbo::PrivacyNoiseSource& noise) {
    return train_with(
        rows, features, settings,
        [&](std::size_t i, std::size_t n) {
            return i + static_cast<std::size_t>(dpbo::privacy::uniform_below(n - i, noise));
        },
        [&](arma::vec& gradient, double scale) { gradient = dpbo::privacy::gaussian_release(gradient, scale, noise); });
}

}  // namespace dpbo::dpsgd
