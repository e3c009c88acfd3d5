#include "projected_sgd.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace dpbo::bolt_on_logreg {

namespace {

// σ(−y w·x), the logistic loss's slope factor, without overflow for large |margin|.
double slope(double label_margin) {
    return label_margin > 0 ? std::exp(-label_margin) / (1.0 + std::exp(-label_margin))
                            : 1.0 / (1.0 + std::exp(label_margin));
}

}  // namespace

arma::vec train_projected_sgd(const dpbo::plugin_data::SparseRows& rows, std::size_t features,
                              const ProjectedSgdSettings& settings, std::mt19937_64& engine) {
    const double gamma = settings.regularisation;
    const double radius = 1.0 / gamma;
    // Smoothness of the regularised logistic loss for ‖x‖ ≤ 1: 1/4 + γ.
    const double beta = 0.25 + gamma;
    // w = scale·v: the shrink (1 − ηγ) of every step is one multiplication, and ‖v‖² is kept
    // up to date by the sparse updates, so a step costs O(nonzeros), not O(features).
    arma::vec v(features, arma::fill::zeros);
    double scale = 1.0;
    double squared_norm_v = 0.0;
    std::vector<std::size_t> order(rows.rows());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::size_t step = 0;
    for (std::size_t pass = 0; pass < settings.passes; ++pass) {
        std::shuffle(order.begin(), order.end(), engine);
        for (const std::size_t r : order) {
            ++step;
            const double eta = std::min(1.0 / beta, 1.0 / (gamma * static_cast<double>(step)));
            double margin = 0.0;
            for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k)
                margin += v[rows.index[k]] * rows.value[k];
            margin *= scale;
            const double label = rows.labels[r];
            // w ← (1 − ηγ) w + η y σ(−y w·x) x: the gradient of log(1 + e^{−y w·x}) + (γ/2)‖w‖².
            const double coefficient = eta * label * slope(label * margin);
            scale *= 1.0 - eta * gamma;
            const double step_in_v = coefficient / scale;
            for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) {
                double& entry = v[rows.index[k]];
                const double change = step_in_v * rows.value[k];
                squared_norm_v += change * (2.0 * entry + change);
                entry += change;
            }
            const double norm = std::abs(scale) * std::sqrt(std::max(squared_norm_v, 0.0));
            if (norm > radius) scale *= radius / norm;  // projection onto the ball of radius 1/γ
            if (std::abs(scale) < 1e-100) {             // fold the scale back before it underflows
                v *= scale;
                squared_norm_v = arma::dot(v, v);
                scale = 1.0;
            }
        }
    }
    return scale * v;
}

double weight_sensitivity(double regularisation, std::size_t rows) {
    return 4.0 / (regularisation * static_cast<double>(rows));
}

}  // namespace dpbo::bolt_on_logreg
