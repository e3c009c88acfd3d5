// An algorithm for the tests only, whose whole point is its figure: it traces a column no host code
// knows ("halving_step", 2^-t) and declares a figure of it (log y) in its result, so that
// `dpbo report` drawing that figure proves a third party's figures need no change to the host. The
// search itself is a few data-independent points, released exactly (nothing private).
#include <cmath>

#include "dpbo/algorithm.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/figure_spec.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"

namespace {

class DeclaredFigure final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("steps", {.fallback = 6, .lower = 1, .doc = "data-independent points evaluated, one per step"});
        return schema;
    }

    explicit DeclaredFigure(const dpbo::ParameterSet& p) : steps_(static_cast<std::size_t>(p.integer("steps"))) {}

    dpbo::RunResult run(dpbo::RunContext& context) override {
        dpbo::RunResult result;
        result.trace.set_columns({{"iteration"}, {"evaluations"}, {"halving_step"}});
        const arma::mat points = context.objective.space().sample(steps_, context.rng);
        dpbo::EvaluationRequest request;
        request.rng = &context.rng;
        for (std::size_t t = 1; t <= steps_; ++t) {
            context.evaluator.evaluate(context.objective, points.rows(t - 1, t - 1), request);
            result.trace.add_row({static_cast<double>(t), static_cast<double>(context.evaluator.evaluations()),
                                  std::ldexp(1.0, -static_cast<int>(t))});
        }
        result.released.push_back({"points", "the data-independent points evaluated", points});
        result.privacy =
            dpbo::PrivacyStatement::not_private({"the points evaluated"}, "a test algorithm: nothing is privatised");
        result.evaluations = context.evaluator.evaluations();
        result.stop_reason = "done";
        result.figures = {{.id = "test.halving-step",
                           .title = "Halving step of {folder} over {repeats} repeat(s)",
                           .caption = "The test algorithm's own trace column, declared by the algorithm alone.",
                           .x = {.label = "step t", .unit = "count"},
                           .y = {.label = "halving step 2^-t", .unit = "step units", .log = true},
                           .series = {{.source = dpbo::FigureSource::trace,
                                       .x = "iteration",
                                       .y = "halving_step",
                                       .legend = "{folder}: median halving step"}}}};
        return result;
    }

private:
    std::size_t steps_;
};

}  // namespace

DPBO_PLUGIN(DeclaredFigure, "test-declared-figure", "1.0.0",
            "test only: traces a column of its own and declares its figure, drawn by dpbo report",
            "dpbo's figures-as-data seam")
