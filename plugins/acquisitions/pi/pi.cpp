// Probability of improvement over the incumbent f*: Pr(f(x) > f* + ξ) = Φ((μ − f* − ξ)/σ)
// (Kushner 1964).
#include <cmath>
#include <numbers>

#include "dpbo/acquisition.hpp"
#include "dpbo/dp_math.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

// At or below this posterior variance the posterior is a point mass: PI is 1 where μ exceeds
// f* + ξ and 0 elsewhere, with zero gradient; the closed form would divide by σ ≈ 0.
constexpr double kVarianceFloor = 1e-30;

using dpbo::normal_cdf;  // erfc-based: full relative accuracy in the lower tail
using dpbo::normal_pdf;

class ProbabilityOfImprovement final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("xi", {.fallback = 0.01,
                           .lower = 0.0,
                           .doc = "exploration offset ξ: the probability that f exceeds f* + ξ, in target units"});
        return schema;
    }

    explicit ProbabilityOfImprovement(const dpbo::ParameterSet& parameters) : xi_(parameters.real("xi")) {}

    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        const dpbo::Posterior posterior = model.predict(points);
        const double threshold = context.incumbent + xi_;
        arma::vec values(points.n_rows);
        for (arma::uword i = 0; i < values.n_elem; ++i) {
            const double improvement = posterior.mean(i) - threshold;
            const double variance = posterior.variance(i);
            values(i) = variance > kVarianceFloor ? normal_cdf(improvement / std::sqrt(variance))
                                                  : (improvement > 0.0 ? 1.0 : 0.0);
        }
        return values;
    }

    bool provides_gradient() const override { return true; }

    double score_with_gradient(const dpbo::Surrogate& model, const arma::rowvec& point,
                               const dpbo::AcquisitionContext& context, arma::rowvec& gradient) const override {
        const dpbo::PointPosterior posterior = model.predict_with_gradient(point);
        const double improvement = posterior.mean - context.incumbent - xi_;
        if (posterior.variance <= kVarianceFloor) {
            gradient.zeros(point.n_elem);
            return improvement > 0.0 ? 1.0 : 0.0;
        }
        const double sigma = std::sqrt(posterior.variance);
        const double z = improvement / sigma;
        // ∂Φ(u/σ) = φ(z) (∂μ − z ∂σ) / σ with ∂σ = ∂v / (2σ).
        gradient = (normal_pdf(z) / sigma) *
                   (posterior.mean_gradient - (z / (2.0 * sigma)) * posterior.variance_gradient);
        return normal_cdf(z);
    }

private:
    double xi_;
};

}  // namespace

DPBO_PLUGIN(ProbabilityOfImprovement, "pi", "1.0.0", "probability of improving on the incumbent by more than xi",
            "Kushner, A new method of locating the maximum point of an arbitrary multipeak curve in the presence "
            "of noise, J. Basic Engineering 86 (1964)")
