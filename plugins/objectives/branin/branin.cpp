// Branin-Hoo: a standard two-dimensional test function with three global minimisers, used in the
// PO-GP-UCB experiments (on a grid: `branin-grid`). Holds no sensitive data; optional Gaussian
// observation noise makes it a noisy benchmark.
#include <fmt/format.h>

#include "branin_function.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "objective 'branin'";

namespace branin_function = dpbo::branin_function;

class Branin final : public dpbo::Objective, public dpbo::ObservationNoise, public dpbo::HasKnownOptimum {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        dpbo::add_noise_parameter(schema);
        return schema;
    }

    explicit Branin(const dpbo::ParameterSet& parameters)
        : space_(branin_function::box()), noise_stddev_(parameters.real("noise_stddev")) {}

    const dpbo::SearchSpace& space() const override { return space_; }
    // Added by the host after it checks the exact values.
    double observation_noise_stddev() const override { return noise_stddev_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        if (points.n_cols != 2) {
            throw dpbo::RunError(fmt::format("{}: points have {} columns; Branin takes 2", kOwner, points.n_cols));
        }
        dpbo::Evaluations result;
        result.points = points;
        result.values = branin_function::values(points);
        return result;
    }

    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        dpbo::KnownOptimum optimum;
        optimum.value = branin_function::minimum_value();
        optimum.points = branin_function::minimisers();
        return optimum;
    }

private:
    dpbo::SearchSpace space_;
    double noise_stddev_;
};

}  // namespace

DPBO_PLUGIN(Branin, "branin", "1.0.0", "Branin-Hoo on [-5,10]x[0,15], three global minima of 5/(4 pi), optional noise",
            "Dixon & Szegő (1978); Kharkovskii, Dai & Low (2020), §4 and appendix A (PO-GP-UCB experiments)")
