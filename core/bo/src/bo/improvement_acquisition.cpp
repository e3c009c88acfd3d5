#include "dpbo/bo/improvement_acquisition.hpp"

#include <cmath>

#include "dpbo/surrogate.hpp"

namespace dpbo {

namespace {
constexpr double kVarianceFloor = 1e-30;

double sigma_of(double variance) { return variance > kVarianceFloor ? std::sqrt(variance) : 0.0; }
}  // namespace

ImprovementAcquisition::ImprovementAcquisition(double xi) : xi_(xi) {}

ImprovementAcquisition::~ImprovementAcquisition() = default;

arma::vec ImprovementAcquisition::score(const Surrogate& model, const arma::mat& points,
                                        const AcquisitionContext& context) const {
    const Posterior posterior = model.predict(points);
    const double threshold = context.incumbent + xi_;
    arma::vec values(points.n_rows);
    for (arma::uword i = 0; i < values.n_elem; ++i)
        values(i) = terms(posterior.mean(i) - threshold, sigma_of(posterior.variance(i))).value;
    return values;
}

double ImprovementAcquisition::score_with_gradient(const Surrogate& model, const arma::rowvec& point,
                                                   const AcquisitionContext& context, arma::rowvec& gradient) const {
    const PointPosterior posterior = model.predict_with_gradient(point);
    const double sigma = sigma_of(posterior.variance);
    const ImprovementTerms t = terms(posterior.mean - context.incumbent - xi_, sigma);
    gradient = t.d_improvement * posterior.mean_gradient;
    if (sigma > 0.0) gradient += (t.d_sigma / (2.0 * sigma)) * posterior.variance_gradient;  // ∂σ = ∂v/(2σ)
    return t.value;
}

}  // namespace dpbo
