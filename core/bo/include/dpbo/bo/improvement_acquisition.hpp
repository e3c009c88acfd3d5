#pragma once
// Acquisitions that depend on the posterior only through the improvement u = μ − f* − ξ and σ
// (expected improvement, probability of improvement). The batch loop, the ξ offset and the chain
// rule through σ = √v live here once; a subclass supplies its formula of (u, σ).
#include "dpbo/acquisition.hpp"

namespace dpbo {

struct ImprovementTerms {
    double value = 0.0;
    double d_improvement = 0.0;  // ∂value/∂u
    double d_sigma = 0.0;        // ∂value/∂σ
};

class ImprovementAcquisition : public Acquisition {
public:
    explicit ImprovementAcquisition(double xi);
    ~ImprovementAcquisition() override;

    arma::vec score(const Surrogate& model, const arma::mat& points, const AcquisitionContext& context) const final;
    bool provides_gradient() const final { return true; }
    double score_with_gradient(const Surrogate& model, const arma::rowvec& point, const AcquisitionContext& context,
                               arma::rowvec& gradient) const final;

protected:
    // σ = 0 stands for a point mass: posterior variance at or below 1e-30, where formulas that
    // divide by σ would divide rounding noise by almost nothing.
    virtual ImprovementTerms terms(double improvement, double sigma) const = 0;

private:
    double xi_;
};

}  // namespace dpbo
