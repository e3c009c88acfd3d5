// Non-private GIBO (gradient-informative Bayesian optimisation), behaving like the authors'
// reference implementation (sarmueller/gibo, BayesianGradientAscent with its synthetic "110620"
// configuration). One iteration t:
//   1. evaluate f(θ_t) and add it to the data; keep the max_points most recent points;
//   2. up to max_samples_per_iteration times: pick z in the local box θ_t ± delta maximising
//      −Tr Σ∇(θ_t | D ∪ {z}) (acquisition 'gibo-trace'), evaluate it, add it; from the second
//      sample on stop as soon as the trace fell by less than min_trace_reduction;
//   3. step θ_{t+1} = θ_t + lr · g with g = ∇m(θ_t), or ℓ ⊙ ∇m/‖∇m‖ with normalize_gradient,
//      optionally divided by diag Σ∇(θ_t) (standard_deviation_scaling).
// Everything happens in the unit cube of the objective's box; the surrogate sees values in the
// maximisation sense. Deliberate differences from the reference: θ and the local box are kept
// inside the box (the reference's domain is unbounded); the budget is never exceeded (the
// reference finishes its last iteration beyond it); the window is applied when an iteration
// starts and before its gradient step, not after every sample, so the points of one iteration join
// the model by O(n²) appends instead of one refactorisation each; and by default the acquisition
// is maximised over a 64-point quasi-random sweep of the local box (the reference's raw_samples)
// without the reference's five L-BFGS-B refinements (local_starts; gibo-trace has no analytic
// gradient): on the reference's benchmark this keeps its quality at a fraction of the cost.
//
// Trace, one row per iteration, every column about the iterate θ_t of that iteration:
// iteration, evaluations (so far), theta[0..d-1] (θ_t in the objective's coordinates),
// observed_value (the noisy f(θ_t)), value_estimate (posterior mean at θ_t after the iteration's
// samples), best_value (best observed so far), batch_size (acquired points besides θ_t),
// gradient_norm ‖∇m(θ_t)‖, gradient_trace Tr Σ∇(θ_t), step_norm (unit cube), cpu_seconds, and
// simple_regret of best_value when the objective knows its optimum.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "memory_bound.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/random.hpp"
#include "dpbo/bo/starting_point.hpp"
#include "dpbo/surrogate.hpp"

namespace {

constexpr const char* kOwner = "algorithm 'gibo'";
// torch.nn.functional.normalize's floor on the norm: a vanishing gradient gives no step rather
// than a division by zero.
constexpr double kNormFloor = 1e-12;
// The reference clamps the gradient covariance at this value before dividing by its diagonal.
constexpr double kVarianceFloor = 1e-9;

struct GiboSettings {
    std::size_t budget = 300;
    dpbo::StartingPoint start;
    double delta = 0.2;
    std::optional<std::size_t> max_samples;  // absent: d
    double min_trace_reduction = 0.1;
    double lr = 0.25;
    bool normalize_gradient = true;
    bool standard_deviation_scaling = false;
    std::optional<std::size_t> max_points;  // absent: 5d
    dpbo::AcquisitionOptimiserSettings optimiser;
};

// The state of one run.
class GiboRun {
public:
    GiboRun(dpbo::RunContext& context, const GiboSettings& settings)
        : ctx_(context),
          surrogate_(context.role<dpbo::Surrogate>("surrogate")),
          acquisition_(context.role<dpbo::Acquisition>("acquisition")),
          space_(context.objective.space()),
          maximise_(context.objective.sense() == dpbo::Sense::Maximise),
          budget_(settings.budget),
          delta_(settings.delta),
          min_trace_reduction_(settings.min_trace_reduction),
          lr_(settings.lr),
          normalize_gradient_(settings.normalize_gradient),
          standard_deviation_scaling_(settings.standard_deviation_scaling),
          optimiser_(settings.optimiser),
          evaluations_before_(context.evaluator.evaluations()) {
        if (space_.is_finite()) {
            throw dpbo::ValidationError(fmt::format(
                "{}: the objective's space is a finite candidate set; GIBO takes gradient steps and needs a box",
                kOwner));
        }
        if (!surrogate_ || !acquisition_)
            throw dpbo::ValidationError(fmt::format("{}: needs a surrogate and an acquisition", kOwner));
        if (!surrogate_->provides_gradients()) {
            throw dpbo::ValidationError(fmt::format(
                "{}: the surrogate provides no posterior gradients; use 'gp' with kernel rbf or matern52", kOwner));
        }
        dim_ = space_.dim();
        max_samples_ = settings.max_samples.value_or(dim_);
        max_points_ = settings.max_points.value_or(5 * dim_);
        theta_ = space_.to_unit(dpbo::choose_starting_point(settings.start, space_, ctx_.rng, kOwner));
        setup_trace();
    }

    dpbo::RunResult run() {
        ctx_.observer.on_start((budget_ + max_samples_) / (max_samples_ + 1));
        std::string stop = "budget";
        std::size_t iteration = 0;
        while (spent() < budget_) {
            if (ctx_.observer.should_stop()) {
                stop = "observer";
                break;
            }
            ++iteration;
            const double start = dpbo::thread_cpu_seconds();
            const double observed = evaluate(theta_);
            apply_window();
            surrogate_->refit_if_due(ctx_.rng);
            const std::size_t batch = acquire(iteration);
            apply_window();
            const Step step = gradient_step();
            record(iteration, observed, batch, step, dpbo::thread_cpu_seconds() - start);
            theta_ = step.next;
        }
        return finish(stop);
    }

private:
    struct Step {
        arma::rowvec next;
        double value_estimate = 0.0;  // model sense
        double gradient_norm = 0.0;
        double gradient_trace = 0.0;
        double step_norm = 0.0;
    };

    void setup_trace() {
        std::vector<dpbo::TraceColumn> columns = {{"iteration"}, {"evaluations"}};
        for (auto& c : dpbo::Trace::vector_columns("theta", dim_, false)) columns.push_back(c);
        for (const char* name : {"observed_value", "value_estimate", "best_value", "batch_size", "gradient_norm",
                                 "gradient_trace", "step_norm"})
            columns.push_back({name});
        columns.push_back({"cpu_seconds", true});  // timings depend on the data through the objective's cost
        if (dpbo::known_optimum(ctx_.objective)) columns.push_back({"simple_regret"});
        trace_.set_columns(std::move(columns));
    }

    // Evaluations of this run (an evaluator may have counted others before).
    std::size_t spent() const { return ctx_.evaluator.evaluations() - evaluations_before_; }

    double to_objective_sense(double model_value) const { return maximise_ ? model_value : -model_value; }

    // Evaluates one unit-cube point, adds it to the data and the model; returns the observed value.
    double evaluate(const arma::rowvec& unit_point) {
        const arma::mat point = space_.from_unit(unit_point);
        dpbo::EvaluationRequest request;
        request.rng = &ctx_.rng;
        const dpbo::Evaluations result = ctx_.evaluator.evaluate(ctx_.objective, point, request);
        const double value = result.values(0);
        const double target = maximise_ ? value : -value;
        // The model sees where the point really is (integer dimensions are rounded by from_unit).
        const arma::mat model_point = space_.to_unit(point);
        data_points_.insert_rows(data_points_.n_rows, model_point);
        data_targets_.resize(data_targets_.n_elem + 1);
        data_targets_(data_targets_.n_elem - 1) = target;
        // The first observation replaces whatever the surrogate held; later ones extend the factor.
        if (data_points_.n_rows == 1)
            surrogate_->condition(model_point, arma::vec{target});
        else
            surrogate_->append(model_point, arma::vec{target});
        if (best_point_.is_empty() || target > best_target_) {
            best_target_ = target;
            best_point_ = point;
        }
        return value;
    }

    // Keeps the max_points most recent observations (the reference's N_max window).
    void apply_window() {
        const arma::uword total = data_points_.n_rows;
        if (total - window_first_ <= max_points_) return;
        window_first_ = total - max_points_;
        surrogate_->condition(data_points_.rows(window_first_, total - 1),
                              data_targets_.subvec(window_first_, total - 1));
    }

    // Greedy acquisition in the local box with the reference's early stop; returns the count.
    std::size_t acquire(std::size_t iteration) {
        const arma::rowvec lower = arma::clamp(theta_ - delta_, 0.0, 1.0);
        const arma::rowvec upper = arma::clamp(theta_ + delta_, 0.0, 1.0);
        dpbo::AcquisitionContext context;
        context.iteration = iteration;
        context.dimension = dim_;
        context.incumbent = best_target_;
        context.anchor = theta_;
        std::size_t count = 0;
        double previous_score = 0.0;
        while (count < max_samples_ && spent() < budget_) {
            const dpbo::AcquisitionOptimum best =
                dpbo::maximise_in_box(*acquisition_, *surrogate_, context, lower, upper, optimiser_, ctx_.rng);
            evaluate(best.point);
            ++count;
            // The score is −Tr Σ∇ after adding the point: the difference of consecutive scores is what
            // the newest point took off the trace. The reference evaluates that point before deciding.
            if (count >= 2 && best.score - previous_score < min_trace_reduction_) break;
            previous_score = best.score;
        }
        return count;
    }

    Step gradient_step() const {
        Step step;
        const arma::vec gradient = surrogate_->mean_gradient(theta_);
        const arma::mat covariance = surrogate_->gradient_covariance(theta_);
        step.value_estimate = surrogate_->predict(theta_).mean(0);
        step.gradient_norm = arma::norm(gradient);
        step.gradient_trace = arma::trace(covariance);
        arma::rowvec direction = gradient.t();
        if (normalize_gradient_) {
            const arma::vec scales = surrogate_->lengthscales();
            direction = direction / std::max(step.gradient_norm, kNormFloor) % scales.t();
        }
        if (standard_deviation_scaling_)
            direction /= arma::clamp(covariance.diag(), kVarianceFloor, arma::datum::inf).t();
        step.step_norm = lr_ * arma::norm(direction);
        step.next = arma::clamp(theta_ + lr_ * direction, 0.0, 1.0);
        return step;
    }

    void record(std::size_t iteration, double observed, std::size_t batch, const Step& step, double cpu_seconds) {
        const double best_value = to_objective_sense(best_target_);
        std::vector<double> row = {static_cast<double>(iteration), static_cast<double>(spent())};
        const arma::rowvec theta = space_.from_unit(theta_);
        row.insert(row.end(), theta.begin(), theta.end());
        row.insert(row.end(),
                   {observed, to_objective_sense(step.value_estimate), best_value, static_cast<double>(batch),
                    step.gradient_norm, step.gradient_trace, step.step_norm, cpu_seconds});
        if (const auto regret = ctx_.objective.regret(best_value)) row.push_back(*regret);
        trace_.add_row(std::move(row));
        ctx_.observer.on_iteration(iteration, trace_);
    }

    dpbo::RunResult finish(const std::string& stop) {
        dpbo::RunResult result;
        const double best_value = to_objective_sense(best_target_);
        result.released.push_back({"theta_final", "the last iterate θ_T", space_.from_unit(theta_)});
        if (!best_point_.is_empty()) {
            result.released.push_back({"best_point", "the best evaluated point", best_point_});
            result.released.push_back({"best_value", "its observed value", arma::mat{best_value}});
            if (const auto regret = ctx_.objective.regret(best_value))
                result.evaluation_only.push_back({"simple_regret", "of the best observed value", arma::mat{*regret}});
        }
        result.privacy = dpbo::PrivacyStatement::not_private(
            {"every evaluated point and its observed value",
             "every iterate θ_t and the posterior summaries in the trace", "the last iterate θ_T",
             "the best evaluated point and its value"},
            "GIBO is not private: its gradient estimates, steps and releases use the observed values as they are");
        result.trace = std::move(trace_);
        result.evaluations = spent();
        result.stop_reason = stop;
        return result;
    }

    dpbo::RunContext& ctx_;
    std::shared_ptr<dpbo::Surrogate> surrogate_;
    std::shared_ptr<dpbo::Acquisition> acquisition_;
    const dpbo::SearchSpace& space_;
    bool maximise_;
    std::size_t budget_;
    double delta_;
    double min_trace_reduction_;
    double lr_;
    bool normalize_gradient_;
    bool standard_deviation_scaling_;
    dpbo::AcquisitionOptimiserSettings optimiser_;
    std::size_t evaluations_before_;
    std::size_t dim_ = 0;
    std::size_t max_samples_ = 0;
    std::size_t max_points_ = 0;
    arma::rowvec theta_;
    arma::mat data_points_;         // every observation, oldest first, in the unit cube
    arma::vec data_targets_;        // maximisation sense
    arma::uword window_first_ = 0;  // first observation the model holds
    arma::rowvec best_point_;
    double best_target_ = -std::numeric_limits<double>::infinity();
    dpbo::Trace trace_;
};

class Gibo final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.integer("budget", {.fallback = 300,
                                  .lower = 1,
                                  .unit = "evaluations",
                                  .doc = "objective evaluations in all (the reference's max_objective_calls)"});
        // The reference starts at the centre, 0.5·1 on [0,1]^d.
        dpbo::add_starting_point_parameters(schema);
        schema
            .real("delta", {.fallback = 0.2,
                            .lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .unit = "unit-cube side",
                            .doc = "half-width of the local box θ ± delta in which points are acquired"})
            .integer("max_samples_per_iteration",
                     {.lower = 1,
                      .unit = "evaluations",
                      .doc = "most points acquired per iteration besides θ itself (absent: the dimension d)"})
            .real("min_trace_reduction",
                  {.fallback = 0.1,
                   .doc = "from the second acquired point on, stop acquiring when the last point took less than this "
                          "off Tr Σ∇(θ) (the reference's epsilon_diff_acq_value); negative: never stop early"})
            .real("lr", {.fallback = 0.25,
                         .lower = 0.0,
                         .lower_inclusive = false,
                         .doc = "learning rate of the (plain SGD) gradient-ascent step"})
            .boolean("normalize_gradient", true,
                     "step along the unit-norm posterior mean gradient scaled by the kernel length-scales "
                     "(lr·ℓ⊙∇m/‖∇m‖) instead of lr·∇m")
            .boolean("standard_deviation_scaling", false,
                     "divide the step by the diagonal of the posterior gradient covariance")
            .integer("max_points", {.lower = 1,
                                    .unit = "points",
                                    .doc = "the model keeps only this many most recent observations (the reference's "
                                           "N_max; absent: 5d)"})
            .integer("sweep_points",
                     {.fallback = 64,
                      .lower = 1,
                      .doc = "quasi-random points scored per acquisition (the reference's raw_samples)"})
            .integer("local_starts", {.fallback = 0,
                                      .lower = 0,
                                      .doc = "best sweep points refined by local search (the reference refines 5 "
                                             "by L-BFGS-B; 0: the best sweep point is taken)"})
            .integer("local_evaluations",
                     {.fallback = 30, .lower = 1, .doc = "acquisition evaluations per local start"});
        return schema;
    }

    explicit Gibo(const dpbo::ParameterSet& p) {
        settings_.budget = static_cast<std::size_t>(p.integer("budget"));
        dpbo::memory::require(kOwner, fmt::format("budget = {}", settings_.budget),
                              static_cast<double>(settings_.budget) * 256.0,
                              "an evaluation and a trace row per step, about 256 bytes each at least");
        settings_.start = dpbo::starting_point_settings(p, kOwner);
        settings_.delta = p.real("delta");
        if (p.has("max_samples_per_iteration"))
            settings_.max_samples = static_cast<std::size_t>(p.integer("max_samples_per_iteration"));
        settings_.min_trace_reduction = p.real("min_trace_reduction");
        settings_.lr = p.real("lr");
        settings_.normalize_gradient = p.boolean("normalize_gradient");
        settings_.standard_deviation_scaling = p.boolean("standard_deviation_scaling");
        if (p.has("max_points")) settings_.max_points = static_cast<std::size_t>(p.integer("max_points"));
        settings_.optimiser.sweep_points = static_cast<std::size_t>(p.integer("sweep_points"));
        settings_.optimiser.local_starts = static_cast<std::size_t>(p.integer("local_starts"));
        settings_.optimiser.local_evaluations = static_cast<std::size_t>(p.integer("local_evaluations"));
    }

    std::vector<dpbo::Role> roles() const override {
        return {
            {"surrogate",
             dpbo::ModuleKind::Surrogate,
             true,
             "gp",
             "the GP whose posterior gradient drives the steps; as in the reference, a squared-exponential kernel "
             "with zero mean and fixed hyperparameters (give the length-scales of your problem)",
             {{"kernel", "rbf"}, {"mean", "zero"}, {"standardise", "false"}, {"fit", "none"}}},
            {"acquisition",
             dpbo::ModuleKind::Acquisition,
             true,
             "gibo-trace",
             "chooses the points that most reduce the uncertainty of the gradient at θ",
             {}},
        };
    }

    dpbo::RunResult run(dpbo::RunContext& context) override { return GiboRun(context, settings_).run(); }

private:
    GiboSettings settings_;
};

}  // namespace

DPBO_PLUGIN(Gibo, "gibo", "1.0.0",
            "GIBO: local Bayesian optimisation by gradient ascent on a GP's posterior mean gradient, acquiring the "
            "points most informative about the gradient (not private)",
            "Müller, von Rohr & Trimpe (2021), Local policy search with Bayesian optimization, NeurIPS, Algorithm 1; "
            "reference implementation sarmueller/gibo")
