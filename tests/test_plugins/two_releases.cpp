// An algorithm for the tests only, whose whole point is its roles: two mechanisms and an accountant,
// declared in roles() and nowhere else, so that driving it from the command line (--values_release,
// --set mean_release.epsilon=..., --accountant) proves a new role costs one line in one file. It
// evaluates a few data-independent points, releases their values through one mechanism and their
// mean through the other; both releases are charged to the run's ledger, whose accountant composes
// them.
#include <fmt/format.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'test-two-releases'";

class TwoReleases final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("points", {.fallback = 4, .lower = 1, .doc = "data-independent points evaluated"})
            .real("value_sensitivity", {.fallback = 1.0,
                                        .lower = 0.0,
                                        .lower_inclusive = false,
                                        .doc = "Δ: how much one value may move between neighbouring datasets"});
        return schema;
    }

    explicit TwoReleases(const dpbo::ParameterSet& p)
        : points_(static_cast<std::size_t>(p.integer("points"))), sensitivity_(p.real("value_sensitivity")) {}

    std::vector<dpbo::Role> roles() const override {
        return {
            {"values_release",
             dpbo::ModuleKind::Mechanism,
             true,
             "laplace",
             "privatises the evaluated values",
             {{"epsilon", "0.5"}}},
            {"mean_release",
             dpbo::ModuleKind::Mechanism,
             true,
             "laplace",
             "privatises their mean",
             {{"epsilon", "0.25"}}},
            {"accountant", dpbo::ModuleKind::Accountant, true, "basic", "composes the two releases", {}},
        };
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        const auto values_release = context.role<dpbo::Mechanism>("values_release");
        const auto mean_release = context.role<dpbo::Mechanism>("mean_release");
        if (!values_release || !mean_release)
            throw dpbo::ValidationError(fmt::format("{}: needs both mechanisms", kOwner));
        const arma::mat points = context.objective.space().sample(points_, context.rng);
        dpbo::EvaluationRequest request;
        request.rng = &context.rng;
        const arma::vec values = context.evaluator.evaluate(context.objective, points, request).values.col(0);

        context.ledger.set_scope("replace one record", "one record of the objective's data");
        values_release->calibrate(dpbo::vector_sensitivity(values_release->sensitivity_norm(), sensitivity_, points_));
        const arma::vec noisy_values = values_release->release(values, context.ledger, "the evaluated values");
        mean_release->calibrate(sensitivity_);
        const arma::vec noisy_mean = mean_release->release(arma::vec{arma::mean(values)}, context.ledger, "their mean");

        dpbo::RunResult result;
        result.released.push_back({"points", "the data-independent points evaluated", points});
        result.released.push_back({"noisy_values", "their values with noise", arma::mat(noisy_values)});
        result.released.push_back({"noisy_mean", "the mean of the values with noise", arma::mat(noisy_mean)});
        result.privacy = values_release->guarantee();
        result.privacy.neighbouring = "replace one record";
        result.privacy.protected_unit = "one record of the objective's data";
        result.privacy.released = {"the evaluated values with noise", "their mean with noise"};
        result.privacy.assumptions = {
            fmt::format("each value moves by at most Δ = {} between neighbouring datasets "
                        "(stated, not verified)",
                        sensitivity_)};
        result.privacy.mechanism = "two releases through the mechanisms of roles values_release and mean_release";
        result.evaluations = context.evaluator.evaluations();
        result.stop_reason = "done";
        dpbo::Trace trace;
        trace.set_columns({{"evaluations"}});
        trace.add_row({static_cast<double>(result.evaluations)});
        result.trace = std::move(trace);
        return result;
    }

private:
    std::size_t points_;
    double sensitivity_;
};

}  // namespace

DPBO_PLUGIN(TwoReleases, "test-two-releases", "1.0.0",
            "test only: two mechanism roles and an accountant role, each release charged to the ledger",
            "dpbo's roles-as-data seam (issue 9)")
