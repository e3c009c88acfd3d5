#include "dp_gibo_run.hpp"

#include "dp_gibo_figures.hpp"
#include "dp_gibo_run_size.hpp"
#include "model_coordinates.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/util/cpu_clock.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"

namespace dpbo::dp_gibo {
namespace {

constexpr const char* kOwner = "algorithm 'dp-gibo'";

// The model works in the objective's coordinates, with each log-scaled dimension replaced by its
// logarithm (model_coordinates.hpp): the kernel's hyperparameters, the clipping bound B, the local
// box and the step sizes are stated there. The release's sensitivity is about each record's clipped
// gradient estimate, whatever the coordinates it is taken in. An integer dimension has no gradient,
// so it is refused.
void check_space(const dpbo::Objective& objective) {
    const dpbo::SearchSpace& space = objective.space();
    if (space.is_finite()) {
        throw dpbo::ValidationError(fmt::format(
            "{}: the objective's space is a finite candidate set; DP-GIBO takes gradient steps and needs a box",
            kOwner));
    }
    for (const dpbo::Dimension& dimension : space.dimensions()) {
        if (dimension.integer) {
            throw dpbo::ValidationError(fmt::format(
                "{}: dimension '{}' is integer; DP-GIBO takes gradient steps and needs every dimension continuous "
                "(linear or log-scaled)",
                kOwner, dimension.name));
        }
    }
    if (dpbo::record_count(objective) == 0) {
        throw dpbo::ValidationError(fmt::format(
            "{}: the objective is not record-decomposable (it reports no records); DP-GIBO clips per-record "
            "losses and needs an objective that returns them (e.g. normal-location, huber-regression, "
            "gp-lengthscales, svr-tuning)",
            kOwner));
    }
}

ModelCoordinates checked_coordinates(const dpbo::Objective& objective) {
    check_space(objective);
    return ModelCoordinates(objective.space());
}

class DpGiboRun {
public:
    DpGiboRun(dpbo::RunContext& context, const DpGiboSettings& settings)
        : ctx_(context),
          surrogate_(context.role<dpbo::Surrogate>("surrogate")),
          acquisition_(context.role<dpbo::Acquisition>("acquisition")),
          settings_(settings),
          space_(context.objective.space()),
          coordinates_(checked_coordinates(context.objective)),
          minimise_(context.objective.sense() == dpbo::Sense::Minimise),
          track_rng_(context.rng.derive_seed()) {
        if (!surrogate_ || !acquisition_)
            throw dpbo::ValidationError(fmt::format("{}: needs a surrogate and an acquisition", kOwner));
        if (!surrogate_->provides_gradients()) {
            throw dpbo::ValidationError(fmt::format(
                "{}: the surrogate provides no posterior gradients; use 'gp' (kernel rbf, matern52 or polynomial)",
                kOwner));
        }
        dim_ = space_.dim();
        max_batch_ = settings_.batch_size.value_or(settings_.max_batch.value_or(dim_ + 1));
        settings_.privacy.records = dpbo::record_count(ctx_.objective);
        settings_.privacy.dimension = dim_;
        require_feasible_run(settings_, max_batch_, dim_, settings_.privacy.records, kOwner);
        release_ = std::make_unique<dpbo::PrivateGradientRelease>(ctx_, kOwner, settings_.privacy);
        // A random θ⁽⁰⁾ comes from the experiment generator: independent of the data, so it costs no privacy.
        theta_ = coordinates_.to_model(dpbo::choose_starting_point(settings_.start, space_, ctx_.rng, kOwner));
        history_points_.set_size(0, dim_);
        history_losses_.set_size(0, settings_.privacy.records);
        lower_ = coordinates_.space().lower();
        upper_ = coordinates_.space().upper();
        if (const auto optimum = dpbo::known_optimum(ctx_.objective); optimum && optimum->points.n_rows > 0)
            optimum_point_ = optimum->points.row(0);
        setup_trace();
    }

    dpbo::RunResult run() {
        dpbo::StepRule rule(settings_.step);
        const std::size_t iterations = settings_.privacy.steps;
        ctx_.observer.on_start(iterations);
        std::string stop = "iterations";
        for (std::size_t t = 1; t <= iterations; ++t) {
            if (ctx_.observer.should_stop()) {
                stop = "observer";
                break;
            }
            iterate(t, rule);
        }
        return finish(stop);
    }

private:
    struct Batch {
        arma::mat points;  // reused earlier points, then the new ones
        arma::mat losses;  // one row per point, one column per record (minimisation sense)
        std::size_t new_points = 0;
        double trace_after = 0.0;  // Tr Σ∇(θ) given the batch, as the acquisition predicted it
    };

    void setup_trace() {
        std::vector<dpbo::TraceColumn> columns = {{"iteration"}, {"evaluations"}};
        for (auto& c : dpbo::Trace::vector_columns("theta", dim_, false)) columns.push_back(c);
        // Locations only (batch, trace) or post-processing of the release (released norm): public.
        for (const char* name : {"batch_size", "points_in_model", "gradient_trace", "released_gradient_norm"})
            columns.push_back({name, false});
        // Computed from the losses before the noise: for judging the run, never released.
        for (const char* name : {"clipped_gradient_norm", "noise_norm", "clipped_records", "largest_record_norm",
                                 "algorithm_cpu_seconds", "evaluation_cpu_seconds"})
            columns.push_back({name, true});
        if (settings_.track_objective) {
            columns.push_back({"objective_value", true});
            if (optimum_point_.n_elem > 0) columns.push_back({"distance_to_optimum", true});
            if (dpbo::known_optimum(ctx_.objective)) columns.push_back({"simple_regret", true});
            if (dpbo::capability<dpbo::RecordGradients>(ctx_.objective)) columns.push_back({"estimate_cosine", true});
        }
        trace_.set_columns(std::move(columns));
    }

    void iterate(std::size_t t, dpbo::StepRule& rule) {
        const double start = dpbo::thread_cpu_seconds();
        const arma::rowvec theta_before = theta_;
        Batch batch = choose_batch(t);
        const double before_evaluation = dpbo::thread_cpu_seconds();
        evaluate_new_points(batch);
        const double after_evaluation = dpbo::thread_cpu_seconds();

        // The model sees only locations: zero targets, so no loss can reach its hyperparameters or
        // its mean. Losses enter only through G = A·Y below, and only clipped and noised.
        update_model(batch);
        const arma::mat weights = surrogate_->mean_gradient_weights(theta_);  // d × |D|
        arma::mat record_gradients = weights * batch.losses;                  // d × n
        if (settings_.centre_losses && batch.losses.n_rows > 0) {             // no points: the prior's zero estimate
            // Each record's losses minus their mean over the model's points: a per-record map, so the
            // sensitivity argument is unchanged. A zero-mean GP reads a record's constant level as a
            // bump and turns it into a spurious gradient whenever the points are not symmetric about θ.
            record_gradients -=
                arma::sum(weights, 1) * (arma::sum(batch.losses, 0) / static_cast<double>(batch.losses.n_rows));
        }
        const double bias_proxy = arma::trace(surrogate_->gradient_covariance(theta_));
        const dpbo::ClippedAverage clipped =
            dpbo::clip_and_average(record_gradients, settings_.privacy.clipping_bound, kOwner);
        const arma::vec released = release_->release(clipped.mean);
        const arma::vec displacement = rule.step(released);
        // Projection onto the box is post-processing of the released gradient.
        theta_ = coordinates_.space().clamp(theta_ - displacement.t());
        remember(batch);
        const double algorithm_seconds = (dpbo::thread_cpu_seconds() - start) - (after_evaluation - before_evaluation);

        std::vector<double> row = {static_cast<double>(t), static_cast<double>(ctx_.evaluator.evaluations())};
        const arma::rowvec released_theta = objective_point(theta_);
        row.insert(row.end(), released_theta.begin(), released_theta.end());
        row.insert(row.end(), {static_cast<double>(batch.new_points), static_cast<double>(batch.points.n_rows),
                               bias_proxy, arma::norm(released), arma::norm(clipped.mean),
                               arma::norm(released - clipped.mean), static_cast<double>(clipped.clipped),
                               clipped.largest_norm, algorithm_seconds, after_evaluation - before_evaluation});
        if (settings_.track_objective) append_evaluation_only(row, theta_before, clipped.mean);
        trace_.add_row(std::move(row));
        ctx_.observer.on_iteration(t, trace_);
    }

    // The model's points — every earlier point (the paper's D_t = D_{t−1} ∪ z), or the nearest
    // reuse_points of them — then a greedy batch in the local box: each new point minimises
    // Tr Σ∇(θ | model ∪ chosen ∪ {z}). Only locations enter, so this is post-processing.
    Batch choose_batch(std::size_t t) {
        Batch batch;
        if (keeps_all_points()) {
            // The surrogate already holds every earlier point (appended below, O(n²) each).
            batch.points = history_points_;
            batch.losses = history_losses_;
            if (t == 1) surrogate_->condition(batch.points, arma::zeros<arma::vec>(0));
        } else {
            batch.points.set_size(0, dim_);
            batch.losses.set_size(0, settings_.privacy.records);
            if (*settings_.reuse_points > 0 && history_points_.n_rows > 0) {
                const arma::vec distances = arma::sum(arma::square(history_points_.each_row() - theta_), 1);
                const arma::uvec order = arma::stable_sort_index(distances);
                const arma::uvec nearest = order.head(std::min<arma::uword>(*settings_.reuse_points, order.n_elem));
                batch.points = history_points_.rows(nearest);
                batch.losses = history_losses_.rows(nearest);
            }
            surrogate_->condition(batch.points, arma::zeros<arma::vec>(batch.points.n_rows));
        }
        const arma::rowvec lower = settings_.local_box ? arma::max(lower_, theta_ - *settings_.local_box) : lower_;
        const arma::rowvec upper = settings_.local_box ? arma::min(upper_, theta_ + *settings_.local_box) : upper_;
        dpbo::AcquisitionContext context;
        context.iteration = t;
        context.dimension = dim_;
        context.anchor = theta_;
        context.pending.set_size(0, dim_);
        batch.trace_after = arma::trace(surrogate_->gradient_covariance(theta_));
        if (t == 1 && batch.points.n_rows == 0 && settings_.bias_tolerance &&
            batch.trace_after <= *settings_.bias_tolerance) {
            // The prior alone meets the tolerance: no point would be evaluated and every step would
            // release noise around a zero gradient estimate.
            throw dpbo::ValidationError(
                fmt::format("{}: bias_tolerance = {} is at least the gradient uncertainty of the model with no "
                            "points, Tr Σ∇(θ) = {:.6g}: no point would ever be evaluated; allowed: bias_tolerance "
                            "below {:.6g} (or batch_size for fixed batches)",
                            kOwner, *settings_.bias_tolerance, batch.trace_after, batch.trace_after));
        }
        const arma::mat candidates = candidate_points(lower, upper);
        while (context.pending.n_rows < max_batch_) {
            if (settings_.bias_tolerance && batch.trace_after <= *settings_.bias_tolerance) break;
            const arma::vec scores = acquisition_->score(*surrogate_, candidates, context);
            const arma::uword best_row = scores.index_max();
            arma::rowvec chosen = candidates.row(best_row);
            double best_score = scores(best_row);
            if (settings_.optimiser.local_starts > 0) {
                const dpbo::AcquisitionOptimum refined = dpbo::maximise_in_box(
                    *acquisition_, *surrogate_, context, lower, upper, settings_.optimiser, ctx_.rng);
                if (refined.score > best_score) {
                    chosen = refined.point;
                    best_score = refined.score;
                }
            }
            context.pending.insert_rows(context.pending.n_rows, chosen);
            batch.trace_after = -best_score;
        }
        batch.new_points = context.pending.n_rows;
        batch.points = arma::join_cols(batch.points, context.pending);
        return batch;
    }

    // Scored in one batch for every point of the batch: a quasi-random sweep of the local box and,
    // because a stationary kernel learns a gradient best from points about a length-scale away
    // along each axis, θ ± r·e_j at half and the full local half-width (clipped to the box).
    arma::mat candidate_points(const arma::rowvec& lower, const arma::rowvec& upper) {
        const arma::mat unit = dpbo::halton_points(settings_.optimiser.sweep_points, dim_, ctx_.rng);
        arma::mat sweep = unit.each_row() % (upper - lower);
        sweep.each_row() += lower;
        arma::mat axes(4 * dim_, dim_);
        for (std::size_t j = 0; j < dim_; ++j) {
            const double reach[] = {0.5 * (upper(j) - lower(j)), upper(j) - theta_(j), theta_(j) - lower(j)};
            const double half_width = settings_.local_box ? *settings_.local_box : reach[0];
            const double radii[] = {0.5 * half_width, half_width};
            for (std::size_t k = 0; k < 2; ++k) {
                arma::rowvec up = theta_;
                arma::rowvec down = theta_;
                up(j) = std::min(upper(j), theta_(j) + radii[k]);
                down(j) = std::max(lower(j), theta_(j) - radii[k]);
                axes.row(4 * j + 2 * k) = up;
                axes.row(4 * j + 2 * k + 1) = down;
            }
        }
        return arma::join_cols(sweep, axes);
    }

    bool keeps_all_points() const { return !settings_.reuse_points.has_value(); }

    // The model's data after the batch: zero targets, so no loss reaches the surrogate.
    void update_model(const Batch& batch) {
        if (keeps_all_points()) {
            if (batch.new_points > 0)
                surrogate_->append(batch.points.tail_rows(batch.new_points), arma::zeros<arma::vec>(batch.new_points));
        } else {
            surrogate_->condition(batch.points, arma::zeros<arma::vec>(batch.points.n_rows));
        }
    }

    void evaluate_new_points(Batch& batch) {
        if (batch.new_points == 0) return;
        const arma::mat fresh = coordinates_.to_objective(batch.points.tail_rows(batch.new_points));
        dpbo::EvaluationRequest request;
        request.per_record = true;
        request.rng = &ctx_.rng;
        const dpbo::Evaluations result = ctx_.evaluator.evaluate(ctx_.objective, fresh, request);
        if (result.per_record.n_rows != batch.new_points || result.per_record.n_cols != settings_.privacy.records) {
            throw dpbo::RunError(fmt::format(
                "{}: the objective returned per-record losses of size {} × {}; expected {} × {} (points × records)",
                kOwner, result.per_record.n_rows, result.per_record.n_cols, batch.new_points,
                settings_.privacy.records));
        }
        batch.losses = arma::join_cols(batch.losses, minimise_ ? result.per_record : arma::mat(-result.per_record));
    }

    void remember(const Batch& batch) {
        if (settings_.reuse_points == std::optional<std::size_t>(0) || batch.new_points == 0) return;
        history_points_ = arma::join_cols(history_points_, batch.points.tail_rows(batch.new_points));
        history_losses_ = arma::join_cols(history_losses_, batch.losses.tail_rows(batch.new_points));
    }

    // θ in the objective's coordinates: what is evaluated, traced and released.
    arma::rowvec objective_point(const arma::rowvec& theta) const { return coordinates_.to_objective(theta); }

    // f(θ_t) straight from the objective, outside the evaluator: it judges the run and is not part
    // of the method's evaluation budget.
    double exact_value(const arma::rowvec& theta) {
        dpbo::EvaluationRequest request;
        request.rng = &track_rng_;
        request.exact = true;
        return ctx_.objective.evaluate(objective_point(theta), request).values(0);
    }

    void append_evaluation_only(std::vector<double>& row, const arma::rowvec& theta_before, const arma::vec& estimate) {
        const double value = exact_value(theta_);
        row.push_back(value);
        if (optimum_point_.n_elem > 0) row.push_back(arma::norm(objective_point(theta_) - optimum_point_));
        if (const auto regret = ctx_.objective.regret(value)) row.push_back(*regret);
        if (const auto* gradients = dpbo::capability<dpbo::RecordGradients>(ctx_.objective)) {
            // How well the clipped GP estimate points along the true mean gradient at θ_t, both in
            // model coordinates.
            const arma::rowvec before = objective_point(theta_before);
            arma::vec exact =
                coordinates_.model_gradient(arma::mean(gradients->record_gradients(before), 0).t(), before);
            if (!minimise_) exact = -exact;
            const double norms = arma::norm(exact) * arma::norm(estimate);
            row.push_back(norms > 0.0 ? arma::dot(exact, estimate) / norms : 0.0);
        }
    }

    dpbo::RunResult finish(const std::string& stop) {
        dpbo::RunResult result;
        result.released.push_back({"theta_final", "the last iterate θ_T", arma::mat(objective_point(theta_))});
        if (settings_.track_objective) {
            const double value = exact_value(theta_);
            result.evaluation_only.push_back(
                {"final_value", "f(θ_T), computed from the data without noise", arma::mat{value}});
            if (optimum_point_.n_elem > 0) {
                result.evaluation_only.push_back({"distance_to_optimum",
                                                  "‖θ_T − θ*‖ for the objective's known "
                                                  "optimiser θ*",
                                                  arma::mat{arma::norm(objective_point(theta_) - optimum_point_)}});
            }
            if (const auto regret = ctx_.objective.regret(value))
                result.evaluation_only.push_back({"simple_regret", "f(θ_T) − f(θ*)", arma::mat{*regret}});
        }
        std::vector<std::string> assumptions = {
            "θ⁽⁰⁾, T, μ, B, the step rule, the kernel and its hyperparameters, the box and the batch rule are "
            "chosen without looking at the data (they are parameters of the run)",
            "the surrogate is given only evaluation locations (zero targets), so batch choice and batch sizes are "
            "post-processing of the released path"};
        if (!coordinates_.log_scaled().empty()) {
            assumptions.push_back(fmt::format(
                "the model, its batches and its steps work in the natural logarithm of the log-scaled dimensions "
                "({}), where B bounds each record's gradient estimate and the local box and step sizes are "
                "stated; the path is released in the objective's coordinates (exp: post-processing)",
                fmt::join(coordinates_.log_scaled(), ", ")));
        }
        result.privacy = release_->statement({"the path θ⁽¹⁾…θ⁽ᵀ⁾ (trace columns theta[·]) and θ_T",
                                              "the evaluation locations, batch sizes and "
                                              "evaluation count, which depend only on the path",
                                              "the bias proxy Tr Σ∇(θ) and the norm of the privatised gradient "
                                              "(post-processing)"},
                                             std::move(assumptions));
        result.trace = std::move(trace_);
        result.evaluations = ctx_.evaluator.evaluations();
        result.stop_reason = stop;
        result.figures = dpbo::dp_gibo::figures();
        return result;
    }

    dpbo::RunContext& ctx_;
    std::shared_ptr<dpbo::Surrogate> surrogate_;
    std::shared_ptr<dpbo::Acquisition> acquisition_;
    DpGiboSettings settings_;
    const dpbo::SearchSpace& space_;
    ModelCoordinates coordinates_;
    bool minimise_;
    dpbo::ExperimentRng track_rng_;
    std::size_t dim_ = 0;
    std::size_t max_batch_ = 0;
    std::unique_ptr<dpbo::PrivateGradientRelease> release_;
    arma::rowvec theta_;
    arma::rowvec lower_;
    arma::rowvec upper_;
    arma::rowvec optimum_point_;
    arma::mat history_points_;
    arma::mat history_losses_;
    dpbo::Trace trace_;
};

}  // namespace

dpbo::RunResult run_dp_gibo(dpbo::RunContext& context, const DpGiboSettings& settings) {
    return DpGiboRun(context, settings).run();
}

}  // namespace dpbo::dp_gibo
