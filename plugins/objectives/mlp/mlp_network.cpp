#include "mlp_network.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace dpbo::mlp {

namespace {

// Softmax cross-entropy's gradient with respect to the logits: softmax(z) − onehot(y), per column,
// shifted by the column's largest logit so that exp never overflows.
arma::fmat softmax_minus_onehot(arma::fmat z, const arma::uvec& labels) {
    z.each_row() -= arma::max(z, 0);
    z = arma::exp(z);
    z.each_row() /= arma::sum(z, 0);
    for (arma::uword i = 0; i < z.n_cols; ++i) z(labels(i), i) -= 1.0f;
    return z;
}

void relu_in_place(arma::fmat& z) {
    z.for_each([](float& value) { value = value > 0.0f ? value : 0.0f; });
}

// ReLU's derivative: the error passes where the unit's output is positive.
void zero_where_inactive(arma::fmat& error, const arma::fmat& output) {
    float* e = error.memptr();
    const float* a = output.memptr();
    for (arma::uword k = 0; k < error.n_elem; ++k)
        if (!(a[k] > 0.0f)) e[k] = 0.0f;
}

}  // namespace

Architecture::Architecture(std::vector<std::size_t> widths) : widths_(std::move(widths)) {
    if (widths_.size() < 2) throw std::invalid_argument("dpbo::mlp::Architecture: needs at least inputs and classes");
    offsets_.push_back(0);
    for (std::size_t l = 0; l + 1 < widths_.size(); ++l)
        offsets_.push_back(offsets_.back() + widths_[l + 1] * (widths_[l] + 1));
}

arma::fmat Architecture::weights(arma::fvec& flat, std::size_t layer) const {
    return arma::fmat(flat.memptr() + offsets_[layer], widths_[layer + 1], widths_[layer], false, true);
}

arma::fvec Architecture::bias(arma::fvec& flat, std::size_t layer) const {
    return arma::fvec(flat.memptr() + offsets_[layer] + widths_[layer + 1] * widths_[layer], widths_[layer + 1], false,
                      true);
}

const arma::fmat Architecture::weights(const arma::fvec& flat, std::size_t layer) const {
    return weights(const_cast<arma::fvec&>(flat), layer);
}

const arma::fvec Architecture::bias(const arma::fvec& flat, std::size_t layer) const {
    return bias(const_cast<arma::fvec&>(flat), layer);
}

arma::fvec he_initialisation(const Architecture& architecture, std::mt19937_64& engine) {
    arma::fvec theta(architecture.parameter_count(), arma::fill::zeros);
    std::normal_distribution<float> normal;
    for (std::size_t l = 0; l < architecture.layers(); ++l) {
        arma::fmat w = architecture.weights(theta, l);
        const float scale = std::sqrt(2.0f / static_cast<float>(architecture.widths()[l]));
        w.for_each([&](float& value) { value = scale * normal(engine); });
    }
    return theta;
}

arma::fmat logits(const Architecture& architecture, const arma::fvec& theta, const arma::fmat& images) {
    arma::fmat a = images;
    for (std::size_t l = 0; l < architecture.layers(); ++l) {
        arma::fmat z = architecture.weights(theta, l) * a;
        z.each_col() += architecture.bias(theta, l);
        if (l + 1 < architecture.layers()) relu_in_place(z);
        a = std::move(z);
    }
    return a;
}

ClippedLotGradient clipped_gradient_sum(const Architecture& architecture, const arma::fvec& theta,
                                        const arma::fmat& images, const arma::uvec& labels, float clipping_norm) {
    const std::size_t layers = architecture.layers();
    // hidden[l]: layer l's input a for l ≥ 1 (the images feed layer 0), one column per example.
    std::vector<arma::fmat> hidden(layers);
    const auto input = [&](std::size_t l) -> const arma::fmat& { return l == 0 ? images : hidden[l]; };
    arma::fmat z;
    for (std::size_t l = 0; l < layers; ++l) {
        z = architecture.weights(theta, l) * input(l);
        z.each_col() += architecture.bias(theta, l);
        if (l + 1 < layers) {
            relu_in_place(z);
            hidden[l + 1] = z;
        }
    }
    // errors[l] = ∂ℓ_i/∂z_l per column, backwards; a ReLU passes the error where its output is > 0.
    std::vector<arma::fmat> errors(layers);
    errors[layers - 1] = softmax_minus_onehot(std::move(z), labels);
    for (std::size_t l = layers - 1; l > 0; --l) {
        errors[l - 1] = architecture.weights(theta, l).t() * errors[l];
        zero_where_inactive(errors[l - 1], hidden[l]);
    }
    ClippedLotGradient result;
    arma::frowvec squared(images.n_cols, arma::fill::zeros);
    for (std::size_t l = 0; l < layers; ++l)
        squared += arma::sum(arma::square(errors[l]), 0) % (arma::sum(arma::square(input(l)), 0) + 1.0f);
    result.norms = arma::sqrt(squared);
    arma::frowvec scale(images.n_cols);
    for (arma::uword i = 0; i < scale.n_elem; ++i)
        // An example whose gradient overflows adds nothing (0·inf would be NaN): within the bound.
        scale(i) = !std::isfinite(result.norms(i))   ? 0.0f
                   : result.norms(i) > clipping_norm ? clipping_norm / result.norms(i)
                                                     : 1.0f;
    for (arma::uword i = 0; i < scale.n_elem; ++i) {
        if (scale(i) != 0.0f) continue;
        for (std::size_t l = 0; l < layers; ++l) {
            errors[l].col(i).zeros();
            if (l > 0) hidden[l].col(i).zeros();
        }
    }
    result.sum.set_size(architecture.parameter_count());
    for (std::size_t l = 0; l < layers; ++l) {
        errors[l].each_row() %= scale;
        architecture.weights(result.sum, l) = errors[l] * input(l).t();
        architecture.bias(result.sum, l) = arma::sum(errors[l], 1);
    }
    return result;
}

double accuracy(const Architecture& architecture, const arma::fvec& theta, const arma::fmat& images,
                const arma::uvec& labels) {
    const arma::fmat scores = logits(architecture, theta, images);
    std::size_t correct = 0;
    for (arma::uword i = 0; i < scores.n_cols; ++i)
        if (scores.col(i).is_finite() && scores.col(i).index_max() == labels(i)) ++correct;
    return static_cast<double>(correct) / static_cast<double>(scores.n_cols);
}

}  // namespace dpbo::mlp
