// A third-party algorithm with a figure of its own: random search in a box that halves around the
// best point so far after every step. It traces the box's width (a column dpbo knows nothing about)
// and declares, in its result, how `dpbo report` should draw it: width against step, log y. The
// report reads that declaration from result.json and draws it; dpbo is not changed or rebuilt.
// Nothing here is private: the values are released exactly.
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/figure_spec.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

namespace {

class ShrinkingBox final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("steps", {.fallback = 8, .lower = 1, .doc = "points evaluated, one per step"});
        return schema;
    }

    explicit ShrinkingBox(const dpbo::ParameterSet& p) : steps_(static_cast<std::size_t>(p.integer("steps"))) {}

    dpbo::RunResult run(dpbo::RunContext& context) override {
        dpbo::Objective& objective = context.objective;
        // A point between two points of a finite set is not one of its candidates.
        if (objective.space().is_finite())
            throw dpbo::ValidationError("algorithm 'shrinking-box' needs a box; the objective's space is a finite set");
        dpbo::RunResult result;
        result.trace.set_columns({{"step"}, {"evaluations"}, {"box_width"}, {"best_value"}});
        dpbo::EvaluationRequest request;
        request.rng = &context.rng;
        const double sign = objective.sense() == dpbo::Sense::Minimise ? 1.0 : -1.0;
        arma::rowvec best;
        double best_value = 0.0, width = 1.0;
        for (std::size_t t = 1; t <= steps_; ++t) {
            // A point of the objective's space, pulled towards the best one by the box's width.
            arma::rowvec point = objective.space().sample(1, context.rng).row(0);
            if (!best.is_empty()) point = best + width * (point - best);
            const dpbo::Evaluations e = context.evaluator.evaluate(objective, point, request);
            if (best.is_empty() || sign * e.values(0, 0) < sign * best_value) {
                best = e.points.row(0);
                best_value = e.values(0, 0);
            }
            result.trace.add_row(
                {static_cast<double>(t), static_cast<double>(context.evaluator.evaluations()), width, best_value});
            width /= 2.0;
        }
        result.released.push_back({"best_point", "the best point evaluated", arma::mat(best)});
        result.released.push_back({"best_value", "its value", arma::mat{best_value}});
        result.privacy = dpbo::PrivacyStatement::not_private({"the best point and its exact value"},
                                                             "an example algorithm: nothing is privatised");
        result.evaluations = context.evaluator.evaluations();
        result.stop_reason = "steps done";
        // The figure, as data: what to plot (trace columns), the axes with their units and scales.
        result.figures = {{.id = "shrinking-box.width",
                           .title = "Shrinking box on {folder}: width of the box per step",
                           .caption = "The box halves around the best point after every step.",
                           .x = {.label = "step", .unit = "count"},
                           .y = {.label = "box width", .unit = "fraction of the space", .log = true},
                           .series = {{.source = dpbo::FigureSource::trace,
                                       .x = "step",
                                       .y = "box_width",
                                       .legend = "{folder}: median over {repeats} repeat(s)"}}}};
        return result;
    }

private:
    std::size_t steps_;
};

}  // namespace

DPBO_PLUGIN(ShrinkingBox, "shrinking-box", "1.0.0",
            "example: random search in a box halving around the best point; declares a figure of its box's width",
            "none (an SDK example of figures declared as data)")
