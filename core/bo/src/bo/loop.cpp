#include "dpbo/bo/loop.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/bo/pareto.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "auxiliary_names.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "memory_bound.hpp"

namespace dpbo {

ParameterSchema bo_loop_schema(std::size_t default_budget, std::size_t default_initial) {
    ParameterSchema schema;
    schema
        .integer("budget", {.fallback = static_cast<std::int64_t>(default_budget),
                            .lower = 2,
                            .unit = "evaluations",
                            .doc = "evaluations in all, the initial design included"})
        .integer("initial_points",
                 {.fallback = static_cast<std::int64_t>(default_initial),
                  .lower = 1,
                  .unit = "evaluations",
                  .doc = "size of the initial design, evaluated before the first model (quasi-random Halton "
                         "points unless the algorithm draws its own)"})
        .boolean("revisit_candidates", false, "finite candidate sets: allow evaluating a row again");
    add_acquisition_optimiser_keys(schema);
    return schema;
}

void add_batch_key(ParameterSchema& schema) {
    schema.integer("batch", {.fallback = 1,
                             .lower = 1,
                             .unit = "points",
                             .doc = "q points proposed per iteration, the later ones chosen with the earlier ones "
                                    "fantasised at their posterior means (so q evaluations can run in parallel: "
                                    "--workers, MPI ranks, ask/tell clients)"});
}

std::size_t batch_setting(const ParameterSet& parameters) {
    return static_cast<std::size_t>(parameters.integer("batch"));
}

BoLoopSettings bo_loop_settings(const ParameterSet& p) {
    BoLoopSettings s;
    s.budget = static_cast<std::size_t>(p.integer("budget"));
    s.initial_points = static_cast<std::size_t>(p.integer("initial_points"));
    s.revisit_candidates = p.boolean("revisit_candidates");
    s.optimiser = acquisition_optimiser_settings(p);
    if (s.initial_points > s.budget)
        throw ValidationError(fmt::format("initial_points = {} exceeds budget = {}", s.initial_points, s.budget));
    // A GP surrogate over every evaluation holds its n × n kernel matrix and Cholesky factor.
    const double n = static_cast<double>(s.budget);
    memory::require(p.owner(), fmt::format("budget = {}", s.budget), 2.0 * n * n * sizeof(double),
                    "a surrogate over n evaluations holds two n × n matrices of doubles");
    const double sweep = static_cast<double>(s.optimiser.sweep_points);
    memory::require(p.owner(), fmt::format("acquisition_evaluations = {}", p.integer("acquisition_evaluations")),
                    sweep * n * sizeof(double), "the sweep's cross-covariances with every evaluation, 8 bytes each");
    return s;
}

InitialDesign::~InitialDesign() = default;
StoppingPolicy::~StoppingPolicy() = default;
LoopStatistics::~LoopStatistics() = default;

Proposal QuasiRandomDesign::design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const {
    Proposal proposal;
    if (space.is_finite()) {
        const arma::mat& candidates = space.candidate_rows();
        const std::size_t rows = candidates.n_rows;
        count = std::min(count, rows);
        std::vector<std::size_t> order(rows);
        for (std::size_t i = 0; i < rows; ++i) order[i] = i;
        for (std::size_t i = 0; i < count; ++i) std::swap(order[i], order[i + rng.index(rows - i)]);
        proposal.candidate_rows.set_size(count);
        for (std::size_t i = 0; i < count; ++i) proposal.candidate_rows(i) = order[i];
        proposal.points = candidates.rows(proposal.candidate_rows);
    } else {
        proposal.points = space.from_unit(halton_points(count, space.dim(), rng));
    }
    proposal.scores.set_size(proposal.points.n_rows);
    proposal.scores.fill(std::numeric_limits<double>::quiet_NaN());
    return proposal;
}

std::string BudgetStopping::stop_reason(const BoLoop& loop, RunObserver& observer) {
    if (loop.observations() >= loop.settings().budget) return "budget";
    if (observer.should_stop()) return "observer";
    return {};
}

std::vector<TraceColumn> StandardStatistics::columns(const BoLoop& loop) const {
    std::vector<TraceColumn> columns = {{"iteration"}, {"evaluations"}};
    if (loop.outputs().size() == 1) {
        columns.insert(columns.end(), {{"value"}, {"best_value"}});
    } else {
        for (const Output& output : loop.outputs()) columns.push_back({fmt::format("value[{}]", output.name)});
        columns.push_back({"front_size"});
    }
    columns.insert(columns.end(), {{"acquisition"}, {"cpu_seconds", true}});  // timings: evaluation-only
    const Objective& objective = loop.context().objective;
    if (loop.outputs().size() == 1 && known_optimum(objective)) columns.push_back({"simple_regret"});
    for (auto& c : Trace::vector_columns("x", objective.space().dim(), false)) columns.push_back(c);
    return columns;
}

std::vector<double> StandardStatistics::row(const BoLoop& loop, double score, double cpu_seconds) const {
    const arma::uword last = loop.observations() - 1;
    std::vector<double> row = {static_cast<double>(loop.iteration()), static_cast<double>(loop.observations())};
    if (loop.outputs().size() == 1) {
        row.insert(row.end(), {loop.observed_values()(last, 0), loop.best_value()});
    } else {
        for (arma::uword j = 0; j < loop.outputs().size(); ++j) row.push_back(loop.observed_values()(last, j));
        row.push_back(static_cast<double>(loop.pareto_front().n_elem));
    }
    row.insert(row.end(), {score, cpu_seconds});
    if (loop.outputs().size() == 1)
        if (const auto regret = loop.context().objective.regret(loop.best_value())) row.push_back(*regret);
    for (const double x : loop.observed_points().row(last)) row.push_back(x);
    return row;
}

namespace {

std::string output_names(const std::vector<Output>& outputs) {
    std::vector<std::string> names;
    for (const Output& output : outputs) names.push_back(fmt::format("{} ({})", output.name, to_string(output.sense)));
    return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

BoLoop::BoLoop(RunContext& context, const BoLoopSettings& settings, std::string algorithm, BoLoopPolicies policies)
    : ctx_(context),
      surrogate_(context.role<Surrogate>("surrogate")),
      acquisition_(context.role<Acquisition>("acquisition")),
      settings_(settings),
      algorithm_(std::move(algorithm)),
      policies_(std::move(policies)),
      space_(context.objective.space()),
      outputs_(context.objective.outputs()),
      auxiliary_outputs_(context.objective.auxiliary_outputs()) {
    if (!surrogate_ || !acquisition_)
        throw ValidationError(fmt::format("algorithm '{}' needs a surrogate and an acquisition", algorithm_));
    if (outputs_.empty())
        throw ValidationError(fmt::format("{} declares no outputs", ctx_.objective.describe_origin()));
    if (acquisition_->supported_outputs() != outputs_.size())
        throw ValidationError(fmt::format(
            "algorithm '{}': {} scores {} output{}, but {} declares {}: {}; choose an acquisition for {} output{}",
            algorithm_, acquisition_->describe_origin(), acquisition_->supported_outputs(),
            acquisition_->supported_outputs() == 1 ? "" : "s", ctx_.objective.describe_origin(), outputs_.size(),
            output_names(outputs_), outputs_.size(), outputs_.size() == 1 ? "" : "s"));
    std::vector<Sense> senses;
    for (const Output& output : outputs_) senses.push_back(output.sense);
    signs_ = maximisation_signs(senses);
    if (!settings_.output_transforms.empty() && settings_.output_transforms.size() != outputs_.size())
        throw ValidationError(
            fmt::format("algorithm '{}': {} output transforms for {} outputs ({}); give one per output", algorithm_,
                        settings_.output_transforms.size(), outputs_.size(), output_names(outputs_)));
    if (!settings_.reference.is_empty() && settings_.reference.n_elem != outputs_.size())
        throw ValidationError(
            fmt::format("algorithm '{}': a reference point of {} entries for {} outputs ({}); give "
                        "one per output",
                        algorithm_, settings_.reference.n_elem, outputs_.size(), output_names(outputs_)));
    if (!(settings_.logit_margin > 0.0 && settings_.logit_margin < 0.5))
        throw ValidationError(
            fmt::format("algorithm '{}': logit margin {} is outside (0, 0.5)", algorithm_, settings_.logit_margin));
    if (!policies_.design) policies_.design = std::make_shared<QuasiRandomDesign>();
    if (!policies_.stopping) policies_.stopping = std::make_shared<BudgetStopping>();
    if (!policies_.statistics) policies_.statistics = std::make_shared<StandardStatistics>();
    if (space_.is_finite()) {
        const std::size_t rows = space_.candidate_rows().n_rows;
        if (!settings_.revisit_candidates && settings_.budget > rows)
            throw ValidationError(
                fmt::format("algorithm '{}': budget = {} exceeds the {} candidates (set "
                            "revisit_candidates = true to allow repeats)",
                            algorithm_, settings_.budget, rows));
        evaluated_rows_.assign(rows, false);
        candidates_unit_ = space_.to_unit(space_.candidate_rows());
    }
    observed_points_.set_size(0, space_.dim());
    observed_values_.set_size(0, outputs_.size());
    observed_auxiliary_.set_size(0, auxiliary_outputs_.size());
    model_targets_.set_size(0, outputs_.size());
    trace_.set_columns(policies_.statistics->columns(*this));
}

BoLoop::~BoLoop() = default;

double BoLoop::best_value() const { return signs_(0) * best_model_value_; }

arma::uvec BoLoop::pareto_front() const {
    std::vector<Sense> senses;
    for (const Output& output : outputs_) senses.push_back(output.sense);
    return non_dominated(observed_values_, senses);
}

AcquisitionContext BoLoop::acquisition_context(const arma::mat& fantasy_targets) const {
    AcquisitionContext context;
    context.iteration = iteration_;
    context.dimension = space_.dim();
    context.outputs = outputs_.size();
    context.incumbent = best_model_value_;
    if (outputs_.size() > 1) {
        context.signs = signs_;
        context.transforms = settings_.output_transforms;
        context.reference = settings_.reference;
        context.adaptive_reference = settings_.adaptive_reference;
        if (fantasy_targets.is_empty()) {
            context.front_indices = pareto_front();
            context.front = model_targets_.rows(context.front_indices);
            context.front_values = observed_values_.rows(context.front_indices);
        } else {
            arma::mat values = observed_values_;
            for (arma::uword i = 0; i < fantasy_targets.n_rows; ++i)
                values = arma::join_cols(values, from_model_targets(fantasy_targets.row(i)));
            std::vector<Sense> senses;
            for (const Output& output : outputs_) senses.push_back(output.sense);
            context.front_indices = non_dominated(values, senses);
            context.front = arma::join_cols(model_targets_, fantasy_targets).eval().rows(context.front_indices);
            context.front_values = values.rows(context.front_indices);
        }
    }
    if (space_.is_finite()) context.candidate_count = candidates_unit_.n_rows;
    return context;
}

arma::rowvec BoLoop::to_model_targets(const arma::rowvec& values, const arma::rowvec& point) const {
    arma::rowvec targets = values;
    for (arma::uword j = 0; j < settings_.output_transforms.size(); ++j) {
        const OutputTransform transform = settings_.output_transforms[j];
        double y = values(j);
        const bool in_domain = transform == OutputTransform::Log     ? std::isfinite(y) && y > 0.0
                               : transform == OutputTransform::Logit ? y >= 0.0 && y <= 1.0
                                                                     : true;
        if (!in_domain)
            throw RunError(
                fmt::format("algorithm '{}': output '{}' is {} at x = [{}], outside the domain of its {} "
                            "transform ({}); the objective's values do not fit the transform chosen for it",
                            algorithm_, outputs_[j].name, y, fmt::join(point, ", "), to_string(transform),
                            transform == OutputTransform::Log ? "finite and > 0" : "in [0, 1]"));
        if (transform == OutputTransform::Logit)
            y = std::clamp(y, settings_.logit_margin, 1.0 - settings_.logit_margin);
        targets(j) = to_model_scale(transform, y);
    }
    return targets % signs_;
}

arma::rowvec BoLoop::from_model_targets(const arma::rowvec& targets) const {
    arma::rowvec values = targets % signs_;
    for (arma::uword j = 0; j < settings_.output_transforms.size(); ++j)
        values(j) = from_model_scale(settings_.output_transforms[j], values(j));
    return values;
}

BoLoop::Choice BoLoop::choose(const AcquisitionContext& acquisition_context, const std::vector<bool>& excluded) {
    Choice choice;
    if (space_.is_finite()) {
        choice.row = best_candidate(*acquisition_, *surrogate_, acquisition_context, candidates_unit_, excluded);
        choice.unit_point = candidates_unit_.row(choice.row);
        choice.score = acquisition_->score(*surrogate_, candidates_unit_.row(choice.row), acquisition_context)(0);
        return choice;
    }
    const arma::rowvec lower(space_.dim(), arma::fill::zeros);
    const arma::rowvec upper(space_.dim(), arma::fill::ones);
    AcquisitionOptimiserSettings optimiser = settings_.optimiser;
    const AcquisitionStrategy strategy = optimiser.strategy;
    if (strategy == AcquisitionStrategy::SweepLocal || strategy == AcquisitionStrategy::Multistart ||
        strategy == AcquisitionStrategy::SweepDirect || strategy == AcquisitionStrategy::SweepBatchedDirect) {
        // One sweep for the whole run: the surrogate then updates its predictions there in O(n)
        // per new point rather than recomputing them in O(n²) (local refinement moves off it).
        if (sweep_.is_empty()) sweep_ = halton_points(optimiser.sweep_points, space_.dim(), ctx_.rng);
        optimiser.fixed_unit_sweep = &sweep_;
    }
    if (strategy == AcquisitionStrategy::Multistart) {
        // The last point observed (the previous maximiser, as evaluated) and the incumbent.
        optimiser.warm_starts = space_.to_unit(observed_points_.tail_rows(1));
        if (outputs_.size() == 1 && !best_point_.is_empty() &&
            arma::any(best_point_ != observed_points_.row(observed_points_.n_rows - 1)))
            optimiser.warm_starts.insert_rows(0, space_.to_unit(best_point_));
    }
    const AcquisitionOptimum best =
        maximise_in_box(*acquisition_, *surrogate_, acquisition_context, lower, upper, optimiser, ctx_.rng);
    choice.unit_point = best.point;
    choice.score = best.score;
    return choice;
}

Proposal BoLoop::propose(std::size_t q) {
    proposal_start_ = thread_cpu_seconds();
    timing_ = true;
    if (observations() == 0) {
        pending_ = policies_.design->design(space_, settings_.initial_points, ctx_.rng);
        return pending_;
    }
    if (q == 0) throw ValidationError(fmt::format("algorithm '{}': propose(q) needs q ≥ 1", algorithm_));
    ++iteration_;
    surrogate_->refit_if_due(ctx_.rng);
    AcquisitionContext acquisition_context = this->acquisition_context();
    arma::mat fantasy_targets(0, outputs_.size());
    std::vector<bool> excluded = settings_.revisit_candidates ? std::vector<bool>{} : evaluated_rows_;
    if (space_.is_finite() && q > 1 && excluded.empty()) excluded.assign(candidates_unit_.n_rows, false);
    const std::size_t held = surrogate_->size();
    arma::mat unit_points(q, space_.dim());
    Proposal proposal;
    proposal.scores.set_size(q);
    if (space_.is_finite()) proposal.candidate_rows.set_size(q);
    for (std::size_t i = 0; i < q; ++i) {
        const Choice choice = choose(acquisition_context, excluded);
        unit_points.row(i) = choice.unit_point;
        proposal.scores(i) = choice.score;
        if (space_.is_finite()) {
            proposal.candidate_rows(i) = choice.row;
            if (q > 1) excluded[choice.row] = true;
        }
        if (i + 1 == q) break;
        // The kriging believer: pretend the point returned the posterior mean, so the next choice
        // sees its uncertainty gone without moving the model's estimate anywhere.
        // At the point that will be evaluated: integer dimensions rounded, as observe() will see it.
        const bool rounded =
            !space_.is_finite() && std::any_of(space_.dimensions().begin(), space_.dimensions().end(),
                                               [](const Dimension& dimension) { return dimension.integer; });
        const arma::mat fantasy_point =
            rounded ? space_.to_unit(space_.from_unit(choice.unit_point)) : arma::mat(choice.unit_point);
        if (outputs_.size() == 1) {
            surrogate_->append(fantasy_point, surrogate_->predict(fantasy_point).mean);
        } else {
            // The fantasy also joins the front: otherwise a point next to it keeps the whole
            // hypervolume gain of the believed value and the batch piles up there.
            const arma::mat believed = surrogate_->predict_outputs(fantasy_point).mean;
            surrogate_->append_outputs(fantasy_point, believed);
            fantasy_targets = arma::join_cols(fantasy_targets, believed);
            acquisition_context = this->acquisition_context(fantasy_targets);
            acquisition_context.pending = unit_points.rows(0, i);
        }
    }
    if (surrogate_->size() != held) surrogate_->truncate(held);
    // Finite sets evaluate the stored rows themselves, never a round trip through the unit cube.
    proposal.points = space_.is_finite() ? arma::mat(space_.candidate_rows().rows(proposal.candidate_rows))
                                         : space_.from_unit(unit_points);
    pending_ = proposal;
    return proposal;
}

arma::uvec BoLoop::rows_of(const Evaluations& evaluations) const {
    if (pending_.candidate_rows.n_elem == evaluations.points.n_rows &&
        arma::approx_equal(pending_.points, evaluations.points, "absdiff", 0.0))
        return pending_.candidate_rows;
    if (evaluations.candidate_rows.n_elem == evaluations.points.n_rows) {
        for (const arma::uword row : evaluations.candidate_rows)
            if (row >= candidates_unit_.n_rows)
                throw ValidationError(fmt::format("algorithm '{}': observed candidate row {} of a set of {}",
                                                  algorithm_, row, candidates_unit_.n_rows));
        return evaluations.candidate_rows;
    }
    throw ValidationError(
        fmt::format("algorithm '{}': on a finite candidate set, observe() needs the points of the "
                    "last proposal or Evaluations::candidate_rows",
                    algorithm_));
}

void BoLoop::observe(const Evaluations& evaluations) {
    const arma::uword b = evaluations.points.n_rows;
    if (b == 0) throw ValidationError(fmt::format("algorithm '{}': observe() was given no points", algorithm_));
    if (evaluations.points.n_cols != space_.dim() || evaluations.values.n_rows != b ||
        evaluations.values.n_cols != outputs_.size())
        throw ValidationError(
            fmt::format("algorithm '{}': observe() was given {} × {} points and {} × {} values; "
                        "expected b × {} and b × {} (one column per output)",
                        algorithm_, b, evaluations.points.n_cols, evaluations.values.n_rows, evaluations.values.n_cols,
                        space_.dim(), outputs_.size()));
    const std::size_t a = auxiliary_outputs_.size();
    if (a == 0 ? !evaluations.auxiliary.is_empty()
               : evaluations.auxiliary.n_rows != b || evaluations.auxiliary.n_cols != a)
        throw ValidationError(
            fmt::format("algorithm '{}': observe() was given {} × {} auxiliary outputs for {} points; "
                        "expected {} × {} (the objective declares {})",
                        algorithm_, evaluations.auxiliary.n_rows, evaluations.auxiliary.n_cols, b, a == 0 ? 0 : b, a,
                        auxiliary_names(auxiliary_outputs_)));
    // The model sees where the points really are (integer dimensions are rounded by from_unit).
    arma::mat model_points;
    if (space_.is_finite()) {
        const arma::uvec rows = rows_of(evaluations);
        model_points = candidates_unit_.rows(rows);
        for (const arma::uword row : rows) evaluated_rows_[row] = true;
    } else {
        model_points = space_.to_unit(evaluations.points);
    }
    if (outputs_.size() == 1) {
        arma::vec targets = evaluations.values;
        if (signs_(0) < 0) targets = -targets;
        if (surrogate_->size() == 0)
            surrogate_->condition(model_points, targets);
        else
            surrogate_->append(model_points, targets);
        for (arma::uword i = 0; i < b; ++i) {
            if (!best_point_.is_empty() && targets(i) <= best_model_value_) continue;
            best_model_value_ = targets(i);
            best_point_ = evaluations.points.row(i);
        }
        model_targets_ = arma::join_cols(model_targets_, arma::mat(targets));
    } else {
        arma::mat targets(b, outputs_.size());
        for (arma::uword i = 0; i < b; ++i)
            targets.row(i) = to_model_targets(evaluations.values.row(i), evaluations.points.row(i));
        if (surrogate_->size() == 0)
            surrogate_->condition_outputs(model_points, targets);
        else
            surrogate_->append_outputs(model_points, targets);
        model_targets_ = arma::join_cols(model_targets_, targets);
    }
    observed_points_ = arma::join_cols(observed_points_, evaluations.points);
    observed_values_ = arma::join_cols(observed_values_, evaluations.values);
    if (a > 0) observed_auxiliary_ = arma::join_cols(observed_auxiliary_, evaluations.auxiliary);

    const double score =
        pending_.scores.n_elem == b ? pending_.scores(b - 1) : std::numeric_limits<double>::quiet_NaN();
    // The design's row carries no time, as a row of a loop that has not started choosing.
    const double cpu = timing_ && iteration_ > 0 ? thread_cpu_seconds() - proposal_start_ : 0.0;
    timing_ = false;
    pending_ = Proposal{};
    trace_.add_row(policies_.statistics->row(*this, score, cpu));
    ctx_.observer.on_iteration(iteration_, trace_);
}

RunResult BoLoop::run() {
    const std::size_t q = std::max<std::size_t>(settings_.batch, 1);
    ctx_.observer.on_start(1 + (settings_.budget - settings_.initial_points + q - 1) / q);
    EvaluationRequest request;
    request.rng = &ctx_.rng;
    while (true) {
        if (observations() > 0) {
            const std::string stop = policies_.stopping->stop_reason(*this, ctx_.observer);
            if (!stop.empty()) return result(stop);
        }
        // The last batch stops at the budget.
        const std::size_t left = settings_.budget > observations() ? settings_.budget - observations() : 1;
        const Proposal proposal = propose(observations() == 0 ? 1 : std::min(q, left));
        observe(ctx_.evaluator.evaluate(ctx_.objective, proposal.points, request));
    }
}

RunResult BoLoop::result(const std::string& stop_reason) {
    RunResult result;
    if (outputs_.size() == 1) {
        result.released.push_back({"best_point", "the best evaluated point", best_point_});
        result.released.push_back({"best_value", "its observed value", arma::mat{best_value()}});
        if (const auto regret = ctx_.objective.regret(best_value()))
            result.released.push_back({"simple_regret", "of the best observed value", arma::mat{*regret}});
    } else {
        const arma::uvec front = pareto_front();
        result.released.push_back(
            {"pareto_points", "the evaluated points no other evaluated point dominates", observed_points_.rows(front)});
        result.released.push_back(
            {"pareto_values", fmt::format("their observed values, one column per output: {}", output_names(outputs_)),
             observed_values_.rows(front)});
        if (!auxiliary_outputs_.empty())
            result.released.push_back({"pareto_auxiliary",
                                       fmt::format("their auxiliary outputs (reported, not modelled): {}",
                                                   auxiliary_names(auxiliary_outputs_)),
                                       observed_auxiliary_.rows(front)});
    }
    std::vector<std::string> released{
        "every evaluated point and its value",
        outputs_.size() == 1 ? "the best point and its value" : "the Pareto front's points and values"};
    if (outputs_.size() > 1 && !auxiliary_outputs_.empty())
        released.push_back(fmt::format("the front's auxiliary outputs ({})", auxiliary_names(auxiliary_outputs_)));
    result.privacy = PrivacyStatement::not_private(
        std::move(released),
        fmt::format("'{}' is not private: it evaluates and releases values of the objective as they are", algorithm_));
    result.trace = trace_;
    result.evaluations = observations();
    result.stop_reason = stop_reason;
    return result;
}

RunResult run_bo_loop(RunContext& context, const BoLoopSettings& settings, const std::string& algorithm) {
    return BoLoop(context, settings, algorithm).run();
}

SequentialBo::SequentialBo(const ParameterSet& parameters, std::string name, std::string default_acquisition,
                           std::string acquisition_doc)
    : settings_(bo_loop_settings(parameters)),
      name_(std::move(name)),
      default_acquisition_(std::move(default_acquisition)),
      acquisition_doc_(std::move(acquisition_doc)) {
    settings_.batch = batch_setting(parameters);
}

SequentialBo::~SequentialBo() = default;

std::vector<Role> SequentialBo::roles() const {
    return {
        {"surrogate",
         ModuleKind::Surrogate,
         true,
         "gp",
         "the model of the objective",
         {{"kernel", "matern52"},
          {"ard", "true"},
          {"mean", "constant"},
          {"standardise", "true"},
          {"fit", "marginal-likelihood"}}},
        {"acquisition", ModuleKind::Acquisition, true, default_acquisition_, acquisition_doc_, {}},
    };
}

RunResult SequentialBo::run(RunContext& context) { return run_bo_loop(context, settings_, name_); }

}  // namespace dpbo
