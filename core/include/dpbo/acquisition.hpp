#pragma once
#include <cstddef>

#include <armadillo>

#include "dpbo/module.hpp"

namespace dpbo {

class Surrogate;

struct AcquisitionContext {
    std::size_t iteration = 1;        // t, from 1
    std::size_t candidate_count = 0;  // |Λ| for finite sets, 0 for boxes
    std::size_t dimension = 0;
    std::size_t outputs = 1;          // k, the objective's outputs the surrogate models
    double incumbent = 0.0;           // one output: best observed value so far, in the maximisation sense
    // Several outputs (k ≥ 2): the current Pareto front of the observed values, in the model's
    // maximisation sense (each output negated when it is minimised), m × k, and the front's row
    // indices among the observations in the order they were made. The incumbent is unused then.
    arma::mat front;
    arma::uvec front_indices;
    // For local, gradient-targeting acquisitions (GIBO): the current iterate θ and the points
    // already chosen for this batch.
    arma::rowvec anchor;
    arma::mat pending;
};

// Scores points; larger is better. Algorithms minimising an objective hand the surrogate the
// negated values, so every acquisition is written for maximisation.
class Acquisition : public Module {
public:
    ~Acquisition() override;
    static constexpr ModuleKind static_kind = ModuleKind::Acquisition;
    ModuleKind kind() const final { return static_kind; }

    virtual arma::vec score(const Surrogate& model, const arma::mat& points,
                            const AcquisitionContext& context) const = 0;
    // How many outputs it scores (reading Surrogate::predict_outputs); an algorithm refuses an
    // objective with another number of outputs, naming both.
    virtual std::size_t supported_outputs() const { return 1; }
    // Analytic gradient in the point, for local refinement; optional.
    virtual bool provides_gradient() const { return false; }
    virtual double score_with_gradient(const Surrogate& model, const arma::rowvec& point,
                                       const AcquisitionContext& context, arma::rowvec& gradient) const;
};

}  // namespace dpbo
