#include "dpbo/bo/loop.hpp"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo {

ParameterSchema bo_loop_schema(std::size_t default_budget, std::size_t default_initial) {
    ParameterSchema schema;
    schema
        .integer("budget", {.fallback = static_cast<std::int64_t>(default_budget), .lower = 2, .unit = "evaluations",
                            .doc = "evaluations in all, the initial design included"})
        .integer("initial_points", {.fallback = static_cast<std::int64_t>(default_initial), .lower = 1,
                                    .unit = "evaluations", .doc = "size of the quasi-random initial design"})
        .boolean("revisit_candidates", false, "finite candidate sets: allow evaluating a row again")
        // 460 + 2 × 20 = 500 acquisition evaluations, Limbo's default budget. The sweep is kept for
        // the whole run, so its predictions cost O(n) per iteration and it takes most of the budget.
        .integer("sweep_points", {.fallback = 460, .lower = 1,
                                  .doc = "quasi-random points scored in one batch per acquisition optimisation "
                                         "(one set for the whole run)"})
        .integer("local_starts", {.fallback = 2, .lower = 0, .doc = "best sweep points refined by local search"})
        .integer("local_evaluations", {.fallback = 20, .lower = 1, .doc = "acquisition evaluations per local start"});
    return schema;
}

BoLoopSettings bo_loop_settings(const ParameterSet& p) {
    BoLoopSettings s;
    s.budget = static_cast<std::size_t>(p.integer("budget"));
    s.initial_points = static_cast<std::size_t>(p.integer("initial_points"));
    s.revisit_candidates = p.boolean("revisit_candidates");
    s.optimiser.sweep_points = static_cast<std::size_t>(p.integer("sweep_points"));
    s.optimiser.local_starts = static_cast<std::size_t>(p.integer("local_starts"));
    s.optimiser.local_evaluations = static_cast<std::size_t>(p.integer("local_evaluations"));
    if (s.initial_points > s.budget)
        throw ValidationError(fmt::format("initial_points = {} exceeds budget = {}", s.initial_points, s.budget));
    return s;
}

namespace {

// The state the loop's steps share; one object per run.
class BoLoop {
public:
    BoLoop(RunContext& context, const BoLoopSettings& settings, std::string algorithm)
        : ctx_(context), surrogate_(context.role<Surrogate>("surrogate")),
          acquisition_(context.role<Acquisition>("acquisition")), settings_(settings), algorithm_(std::move(algorithm)), space_(context.objective.space()),
          maximise_(context.objective.sense() == Sense::Maximise) {
        if (!surrogate_ || !acquisition_)
            throw ValidationError(fmt::format("algorithm '{}' needs a surrogate and an acquisition", algorithm_));
        if (space_.is_finite()) {
            const std::size_t rows = space_.candidate_rows().n_rows;
            if (!settings_.revisit_candidates && settings_.budget > rows)
                throw ValidationError(fmt::format("algorithm '{}': budget = {} exceeds the {} candidates (set "
                                                  "revisit_candidates = true to allow repeats)",
                                                  algorithm_, settings_.budget, rows));
            evaluated_rows_.assign(rows, false);
            candidates_unit_ = space_.to_unit(space_.candidate_rows());
        }
        setup_trace();
    }

    RunResult run() {
        const std::size_t planned = settings_.budget - settings_.initial_points + 1;
        ctx_.observer.on_start(planned);
        initial_design();
        std::size_t iteration = 0;
        std::string stop = "budget";
        while (ctx_.evaluator.evaluations() < settings_.budget) {
            if (ctx_.observer.should_stop()) {
                stop = "observer";
                break;
            }
            ++iteration;
            const double start = thread_cpu_seconds();
            surrogate_->refit_if_due(ctx_.rng);
            const auto [unit_point, score] = propose(iteration);
            evaluate(unit_point);
            record(iteration, score, thread_cpu_seconds() - start);
        }
        return finish(stop);
    }

private:
    void setup_trace() {
        std::vector<TraceColumn> columns = {{"iteration"}, {"evaluations"}, {"value"}, {"best_value"},
                                            {"acquisition"}, {"cpu_seconds", true}};  // timings: evaluation-only
        if (ctx_.objective.known_optimum()) columns.push_back({"simple_regret"});
        for (auto& c : Trace::vector_columns("x", space_.dim(), false)) columns.push_back(c);
        trace_.set_columns(std::move(columns));
    }

    double to_model(double value) const { return maximise_ ? value : -value; }

    void initial_design() {
        arma::mat unit;
        if (space_.is_finite()) {
            const std::size_t rows = candidates_unit_.n_rows;
            const std::size_t count = std::min(settings_.initial_points, rows);
            std::vector<std::size_t> order(rows);
            for (std::size_t i = 0; i < rows; ++i) order[i] = i;
            for (std::size_t i = 0; i < count; ++i) std::swap(order[i], order[i + ctx_.rng.index(rows - i)]);
            unit.set_size(count, space_.dim());
            for (std::size_t i = 0; i < count; ++i) {
                unit.row(i) = candidates_unit_.row(order[i]);
                design_rows_.push_back(order[i]);
            }
        } else {
            unit = halton_points(settings_.initial_points, space_.dim(), ctx_.rng);
        }
        evaluate(unit);
        record(0, std::numeric_limits<double>::quiet_NaN(), 0.0);
    }

    std::pair<arma::rowvec, double> propose(std::size_t iteration) {
        AcquisitionContext acquisition_context;
        acquisition_context.iteration = iteration;
        acquisition_context.dimension = space_.dim();
        acquisition_context.incumbent = best_model_value_;
        if (space_.is_finite()) {
            acquisition_context.candidate_count = candidates_unit_.n_rows;
            const std::size_t row = best_candidate(*acquisition_, *surrogate_, acquisition_context, candidates_unit_,
                                                   settings_.revisit_candidates ? std::vector<bool>{} : evaluated_rows_);
            design_rows_.push_back(row);
            const arma::vec score = acquisition_->score(*surrogate_, candidates_unit_.row(row), acquisition_context);
            return {candidates_unit_.row(row), score(0)};
        }
        const arma::rowvec lower(space_.dim(), arma::fill::zeros);
        const arma::rowvec upper(space_.dim(), arma::fill::ones);
        // One sweep for the whole run: the surrogate then updates its predictions there in O(n)
        // per new point rather than recomputing them in O(n²) (local refinement moves off it).
        if (sweep_.is_empty()) sweep_ = halton_points(settings_.optimiser.sweep_points, space_.dim(), ctx_.rng);
        AcquisitionOptimiserSettings optimiser = settings_.optimiser;
        optimiser.fixed_unit_sweep = &sweep_;
        const AcquisitionOptimum best = maximise_in_box(*acquisition_, *surrogate_, acquisition_context, lower,
                                                        upper, optimiser, ctx_.rng);
        return {best.point, best.score};
    }

    void evaluate(const arma::mat& unit_points) {
        // Finite sets evaluate the stored rows themselves, never a round trip through the unit cube.
        arma::mat points(unit_points.n_rows, space_.dim());
        if (space_.is_finite()) {
            const std::size_t first = design_rows_.size() - unit_points.n_rows;
            for (std::size_t i = 0; i < unit_points.n_rows; ++i) {
                points.row(i) = space_.candidate_rows().row(design_rows_[first + i]);
                evaluated_rows_[design_rows_[first + i]] = true;
            }
        } else {
            points = space_.from_unit(unit_points);
        }
        EvaluationRequest request;
        request.rng = &ctx_.rng;
        const Evaluations result = ctx_.evaluator.evaluate(ctx_.objective, points, request);
        arma::vec targets = result.values;
        if (!maximise_) targets = -targets;
        // The model sees where the points really are (integer dimensions are rounded by from_unit).
        const arma::mat model_points = space_.is_finite() ? arma::mat(unit_points) : space_.to_unit(points);
        if (surrogate_->size() == 0) surrogate_->condition(model_points, targets);
        else surrogate_->append(model_points, targets);
        for (std::size_t i = 0; i < result.size(); ++i) {
            if (!best_point_.is_empty() && targets(i) <= best_model_value_) continue;
            best_model_value_ = targets(i);
            best_point_ = points.row(i);
        }
        last_point_ = points.row(points.n_rows - 1);
        last_value_ = result.values(result.size() - 1);
    }

    void record(std::size_t iteration, double score, double cpu_seconds) {
        const double best_value = maximise_ ? best_model_value_ : -best_model_value_;
        std::vector<double> row = {static_cast<double>(iteration), static_cast<double>(ctx_.evaluator.evaluations()),
                                   last_value_, best_value, score, cpu_seconds};
        if (const auto regret = ctx_.objective.regret(best_value)) row.push_back(*regret);
        for (std::size_t j = 0; j < space_.dim(); ++j) row.push_back(last_point_(j));
        trace_.add_row(std::move(row));
        ctx_.observer.on_iteration(iteration, trace_);
    }

    RunResult finish(const std::string& stop) {
        RunResult result;
        const double best_value = maximise_ ? best_model_value_ : -best_model_value_;
        result.released.push_back({"best_point", "the best evaluated point", best_point_});
        result.released.push_back({"best_value", "its observed value", arma::mat{best_value}});
        if (const auto regret = ctx_.objective.regret(best_value))
            result.released.push_back({"simple_regret", "of the best observed value", arma::mat{*regret}});
        result.privacy = PrivacyStatement::not_private(
            {"every evaluated point and its value", "the best point and its value"},
            fmt::format("'{}' is not private: it evaluates and releases values of the objective as they are",
                        algorithm_));
        result.trace = std::move(trace_);
        result.evaluations = ctx_.evaluator.evaluations();
        result.stop_reason = stop;
        return result;
    }

    RunContext& ctx_;
    std::shared_ptr<Surrogate> surrogate_;
    std::shared_ptr<Acquisition> acquisition_;
    BoLoopSettings settings_;
    std::string algorithm_;
    const SearchSpace& space_;
    bool maximise_;
    arma::mat candidates_unit_;
    arma::mat sweep_;
    std::vector<bool> evaluated_rows_;
    std::vector<std::size_t> design_rows_;
    Trace trace_;
    arma::rowvec best_point_;
    double best_model_value_ = -std::numeric_limits<double>::infinity();
    arma::rowvec last_point_;
    double last_value_ = 0.0;
};

}  // namespace

RunResult run_bo_loop(RunContext& context, const BoLoopSettings& settings, const std::string& algorithm) {
    return BoLoop(context, settings, algorithm).run();
}

SequentialBo::SequentialBo(const ParameterSet& parameters, std::string name, std::string default_acquisition,
                           std::string acquisition_doc)
    : settings_(bo_loop_settings(parameters)), name_(std::move(name)),
      default_acquisition_(std::move(default_acquisition)), acquisition_doc_(std::move(acquisition_doc)) {}

SequentialBo::~SequentialBo() = default;

std::vector<Role> SequentialBo::roles() const {
    return {
        {"surrogate", ModuleKind::Surrogate, true, "gp", "the model of the objective",
         {{"kernel", "matern52"}, {"ard", "true"}, {"mean", "constant"}, {"standardise", "true"},
          {"fit", "marginal-likelihood"}}},
        {"acquisition", ModuleKind::Acquisition, true, default_acquisition_, acquisition_doc_, {}},
    };
}

RunResult SequentialBo::run(RunContext& context) { return run_bo_loop(context, settings_, name_); }

}  // namespace dpbo
