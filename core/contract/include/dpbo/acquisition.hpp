#pragma once
#include <cstddef>
#include <vector>

#include <armadillo>

#include "dpbo/module.hpp"
#include "dpbo/output_transform.hpp"

namespace dpbo {

class Surrogate;

struct AcquisitionContext {
    std::size_t iteration = 1;        // t, from 1
    std::size_t candidate_count = 0;  // |Λ| for finite sets, 0 for boxes
    std::size_t dimension = 0;
    std::size_t outputs = 1;  // k, the objective's outputs the surrogate models
    double incumbent = 0.0;   // one output: best observed value so far, in the maximisation sense
    // Several outputs (k ≥ 2): the current Pareto front of the observed values, in the model's
    // maximisation sense (each output negated when it is minimised), m × k, and the front's row
    // indices among the observations in the order they were made. The incumbent is unused then.
    arma::mat front;
    arma::uvec front_indices;
    // Several outputs, for hypervolume-based acquisitions (DPareto's hvpoi). The surrogate models
    // output j as signs(j) · t_j(y_j), with y_j in the objective's units and t_j = transforms[j]
    // (monotone increasing; empty: the identity for every output), so `front` holds those model
    // values and front_values the same rows as observed, in the objective's units and senses.
    // During propose(q > 1) the front also holds the batch's fantasised points (their model values
    // are the posterior means); their front_indices are ≥ the number of observations.
    arma::rowvec signs;
    std::vector<OutputTransform> transforms;
    arma::mat front_values;
    // The hypervolume's reference point in the objective's units (empty: the algorithm sets none),
    // and whether to replace it by GPflowOpt's rule on the modelled front (max + 2·range/|front|
    // per output, in the minimisation sense), which DPareto offers to reproduce the authors' code.
    arma::rowvec reference;
    bool adaptive_reference = false;
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
