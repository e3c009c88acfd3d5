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
    double incumbent = 0.0;           // best observed value so far, in the maximisation sense
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
    // Analytic gradient in the point, for local refinement; optional.
    virtual bool provides_gradient() const { return false; }
    virtual double score_with_gradient(const Surrogate& model, const arma::rowvec& point,
                                       const AcquisitionContext& context, arma::rowvec& gradient) const;
};

}  // namespace dpbo
