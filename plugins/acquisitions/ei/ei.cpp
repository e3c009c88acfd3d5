// Expected improvement over the incumbent f*: E[max(f(x) − f* − ξ, 0)] under the posterior,
// = u Φ(u/σ) + σ φ(u/σ) with u = μ − f* − ξ (Jones, Schonlau & Welch 1998, eq. 15).
#include <algorithm>
#include <cmath>
#include <numbers>

#include "dpbo/acquisition.hpp"
#include "dpbo/dp_math.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/surrogate.hpp"

namespace {

// At or below this posterior variance the posterior is a point mass and EI = max(u, 0): the
// closed form would divide by σ ≈ 0. Any sensibly scaled posterior is far above it.
constexpr double kVarianceFloor = 1e-30;

using dpbo::normal_cdf;  // erfc-based: full relative accuracy in the lower tail
using dpbo::normal_pdf;

struct ImprovementTerms {
    double value = 0.0;
    double d_mean = 0.0;   // ∂EI/∂μ = Φ(z)
    double d_sigma = 0.0;  // ∂EI/∂σ = φ(z)
};

ImprovementTerms expected_improvement(double improvement, double variance) {
    if (variance <= kVarianceFloor) {
        return improvement > 0.0 ? ImprovementTerms{improvement, 1.0, 0.0} : ImprovementTerms{};
    }
    const double sigma = std::sqrt(variance);
    const double z = improvement / sigma;
    const double cdf = normal_cdf(z);
    const double pdf = normal_pdf(z);
    // z Φ(z) + φ(z) cancels only by a factor of about z² in the lower tail (it behaves like φ(z)/z²),
    // so the direct form keeps ≥ 12 digits until φ itself underflows; the clamp removes a stray
    // negative rounding residue.
    return {std::max(0.0, sigma * (z * cdf + pdf)), cdf, pdf};
}

class ExpectedImprovement final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("xi", {.fallback = 0.0,
                           .lower = 0.0,
                           .doc = "exploration offset ξ: improvement is counted above f* + ξ, in target units"});
        return schema;
    }

    explicit ExpectedImprovement(const dpbo::ParameterSet& parameters) : xi_(parameters.real("xi")) {}

    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        const dpbo::Posterior posterior = model.predict(points);
        const double threshold = context.incumbent + xi_;
        arma::vec values(points.n_rows);
        for (arma::uword i = 0; i < values.n_elem; ++i) {
            values(i) = expected_improvement(posterior.mean(i) - threshold, posterior.variance(i)).value;
        }
        return values;
    }

    bool provides_gradient() const override { return true; }

    double score_with_gradient(const dpbo::Surrogate& model, const arma::rowvec& point,
                               const dpbo::AcquisitionContext& context, arma::rowvec& gradient) const override {
        const dpbo::PointPosterior posterior = model.predict_with_gradient(point);
        const ImprovementTerms terms =
            expected_improvement(posterior.mean - context.incumbent - xi_, posterior.variance);
        gradient = terms.d_mean * posterior.mean_gradient;
        if (posterior.variance > kVarianceFloor) {
            // ∂σ = ∂v / (2σ)
            gradient += (terms.d_sigma / (2.0 * std::sqrt(posterior.variance))) * posterior.variance_gradient;
        }
        return terms.value;
    }

private:
    double xi_;
};

}  // namespace

DPBO_PLUGIN(ExpectedImprovement, "ei", "1.0.0", "expected improvement over the incumbent, with offset xi",
            "Jones, Schonlau & Welch, Efficient global optimization of expensive black-box functions, "
            "J. Global Optimization 13 (1998), eq. 15")
