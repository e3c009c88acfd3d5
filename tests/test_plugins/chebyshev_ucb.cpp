// A two-output acquisition for the tests only: a random-weight Chebyshev scalarisation of each
// output's upper confidence bound (ParEGO's scalarisation, Knowles 2006, applied to UCB). Each
// output's bound μ_j + √β σ_j is measured from the worst front value of that output and scaled by
// the front's range, so both outputs count alike whatever their units; the score is the smallest
// weighted improvement, plus a small weighted sum that breaks ties along the front's edges. The
// weights change with the iteration (drawn from `seed` and t), so successive proposals aim at
// different parts of the front.
#include <cmath>
#include <cstdint>

#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

namespace {

// ParEGO's augmentation weight: small enough that the Chebyshev term decides.
constexpr double kAugmentation = 0.05;

class ChebyshevUcb final : public dpbo::Acquisition {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("beta", {.fallback = 2.0, .lower = 0.0, .doc = "β of each output's bound μ + √β σ"})
            .integer("seed", {.fallback = 0, .lower = 0, .doc = "seed of the weights, with the iteration"});
        return schema;
    }

    explicit ChebyshevUcb(const dpbo::ParameterSet& parameters)
        : root_beta_(std::sqrt(parameters.real("beta"))),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))) {}

    std::size_t supported_outputs() const override { return 2; }

    arma::vec score(const dpbo::Surrogate& model, const arma::mat& points,
                    const dpbo::AcquisitionContext& context) const override {
        if (context.outputs != 2 || context.front.n_cols != 2 || context.front.n_rows == 0)
            throw dpbo::RunError("acquisition 'chebyshev-ucb': needs two outputs and a non-empty Pareto front");
        dpbo::ExperimentRng weights_rng(seed_ * 1000003 + context.iteration);
        const double w = weights_rng.uniform();
        const arma::rowvec weights = {w, 1.0 - w};
        const dpbo::MultiPosterior posterior = model.predict_outputs(points);
        arma::mat bounds =
            posterior.mean + root_beta_ * arma::sqrt(arma::clamp(posterior.variance, 0.0, arma::datum::inf));
        const arma::rowvec worst = arma::min(context.front, 0);
        arma::rowvec range = arma::max(context.front, 0) - worst;
        range.transform([](double r) { return r > 0.0 ? r : 1.0; });
        bounds.each_row() -= worst;
        bounds.each_row() /= range;
        bounds.each_row() %= weights;
        return arma::min(bounds, 1) + kAugmentation * arma::sum(bounds, 1);
    }

private:
    double root_beta_;
    std::uint64_t seed_;
};

}  // namespace

DPBO_PLUGIN(ChebyshevUcb, "chebyshev-ucb", "1.0.0",
            "test acquisition for two outputs: random-weight Chebyshev scalarisation of per-output UCB",
            "Knowles (2006), ParEGO; none (a test of the several-output BO loop)")
