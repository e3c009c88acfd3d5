// Probability of improvement over the incumbent f*: P(f(x) > f* + ξ) = Φ(u/σ) with u = μ − f* − ξ
// (Kushner 1964).
#include "dpbo/math/normal.hpp"
#include "dpbo/bo/improvement_acquisition.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"

namespace {

class ProbabilityOfImprovement final : public dpbo::ImprovementAcquisition {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("xi", {.fallback = 0.01,
                           .lower = 0.0,
                           .doc = "exploration offset ξ: the probability that f exceeds f* + ξ, in target units"});
        return schema;
    }

    explicit ProbabilityOfImprovement(const dpbo::ParameterSet& parameters)
        : ImprovementAcquisition(parameters.real("xi")) {}

private:
    dpbo::ImprovementTerms terms(double improvement, double sigma) const override {
        // A point mass: certain improvement or none, flat in every direction.
        if (sigma == 0.0) return {improvement > 0.0 ? 1.0 : 0.0, 0.0, 0.0};
        const double z = improvement / sigma;
        // erfc-based Φ keeps full relative accuracy in the lower tail, where PI is tiny but must stay
        // ordered. ∂Φ(u/σ)/∂u = φ(z)/σ, ∂Φ(u/σ)/∂σ = −φ(z) z/σ.
        const double density = dpbo::normal_pdf(z) / sigma;
        return {dpbo::normal_cdf(z), density, -density * z};
    }
};

}  // namespace

DPBO_PLUGIN(ProbabilityOfImprovement, "pi", "1.0.0", "probability of improving on the incumbent by more than xi",
            "Kushner, A new method of locating the maximum point of an arbitrary multipeak curve in the presence "
            "of noise, J. Basic Engineering 86 (1964)")
