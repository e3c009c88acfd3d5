#pragma once
// A fully connected ReLU network with a softmax cross-entropy loss, its parameters θ in one flat
// vector (layer by layer: the weights W_l, n_l × n_{l−1} column-major, then the bias b_l), so that
// clipping, noise and the optimiser's update treat θ as the single vector DP-SGD clips.
//
// A lot's per-example gradients are never materialised. For a dense layer the per-example weight
// gradient is the outer product δ_i a_iᵀ (δ_i the layer's backpropagated error, a_i its input), whose
// Frobenius norm is ‖δ_i‖·‖a_i‖, and the bias gradient is δ_i; so ‖∇θ ℓ_i‖² = Σ_l ‖δ_i‖²(‖a_i‖² + 1)
// and the clipped sum Σ_i s_i ∇θ ℓ_i with s_i = min(1, L/‖∇θ ℓ_i‖) is Δ·diag(s)·Aᵀ per layer — one
// matrix product, as for the plain gradient (Goodfellow 2015, "Efficient per-example gradient
// computations").
//
// Single precision: this network is a statistical learner whose test error only measures utility
// (dpbo releases no model), and float halves the matrix products' cost.
#include <cstddef>
#include <random>
#include <vector>

#include <armadillo>

namespace dpbo::mlp {

class Architecture {
public:
    // widths = {inputs, hidden..., classes}; at least one layer.
    explicit Architecture(std::vector<std::size_t> widths);

    std::size_t layers() const { return widths_.size() - 1; }
    std::size_t inputs() const { return widths_.front(); }
    std::size_t classes() const { return widths_.back(); }
    const std::vector<std::size_t>& widths() const { return widths_; }
    std::size_t parameter_count() const { return offsets_.back(); }

    // Views into a flat vector laid out as above (θ or a gradient): layer l = 0 .. layers() − 1.
    arma::fmat weights(arma::fvec& flat, std::size_t layer) const;
    arma::fvec bias(arma::fvec& flat, std::size_t layer) const;
    const arma::fmat weights(const arma::fvec& flat, std::size_t layer) const;
    const arma::fvec bias(const arma::fvec& flat, std::size_t layer) const;

private:
    std::vector<std::size_t> widths_;
    std::vector<std::size_t> offsets_;  // where each layer's weights start; the last entry is the total
};

// He et al. (2015) initialisation for ReLU layers: weights N(0, 2/n_{l−1}), biases 0.
arma::fvec he_initialisation(const Architecture& architecture, std::mt19937_64& engine);

// The lot's per-example gradient norms ‖∇θ ℓ_i‖ and Σ_i min(1, L/‖∇θ ℓ_i‖)·∇θ ℓ_i (flat, like θ);
// ℓ_i the cross-entropy of image column i of `images` with class labels(i).
struct ClippedLotGradient {
    arma::fvec sum;
    arma::frowvec norms;
};
ClippedLotGradient clipped_gradient_sum(const Architecture& architecture, const arma::fvec& theta,
                                        const arma::fmat& images, const arma::uvec& labels, float clipping_norm);

// The logits (classes × images).
arma::fmat logits(const Architecture& architecture, const arma::fvec& theta, const arma::fmat& images);

// The fraction of images whose largest logit is their label's; a column with a non-finite logit (a
// diverged network) counts as wrong.
double accuracy(const Architecture& architecture, const arma::fvec& theta, const arma::fmat& images,
                const arma::uvec& labels);

}  // namespace dpbo::mlp
