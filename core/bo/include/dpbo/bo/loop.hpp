#pragma once
// Bayesian optimisation as an open loop, decomposed as in Limbo — initial design, model,
// acquisition, acquisition optimiser, stopping, statistics — with every part a run-time component:
// the surrogate and the acquisition are plugins, the initial design, the stopping rule and the
// statistics are replaceable policies (the defaults below are the loop gp-ucb and gp-ei run), the
// optimiser is core machinery.
//
// A BoLoop can be driven by hand (propose the next points, evaluate them anywhere, observe the
// results: ask/tell, parallel evaluation, a private release in between) or by run(), which drives
// it to the end.
//
// The loop works in the unit cube of the objective's space (SearchSpace::to_unit), so kernel
// length-scales are comparable across problems, and hands the surrogate every output in the
// maximisation sense (each column negated when its output is minimised). One output keeps an
// incumbent; several (k ≥ 2) keep a Pareto front instead (dpbo/bo/pareto.hpp).
#include <cstddef>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/algorithm.hpp"
#include "dpbo/bo/acquisition_optimiser.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/output_transform.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo {

class Acquisition;
class Surrogate;

struct BoLoopSettings {
    std::size_t initial_points = 10;  // quasi-random design (box) or distinct random rows (finite set)
    std::size_t budget = 60;          // evaluations in all, the design included
    // Points run() proposes at a time after the design (propose(q)): a batch evaluated at once, on
    // several workers or by several ask/tell clients.
    std::size_t batch = 1;
    bool revisit_candidates = false;  // finite sets: may a row be evaluated twice?
    AcquisitionOptimiserSettings optimiser;
    // Several outputs (DPareto): what the surrogate models of output j is t_j(y_j) (empty: the
    // identity for all). observe() refuses (RunError) a value outside t_j's domain — log: y > 0
    // finite; logit: 0 ≤ y ≤ 1 — and models a logit output at y clamped to [logit_margin,
    // 1 − logit_margin], so an error of exactly 0 or 1 stays finite; the front, the trace and the
    // result keep the values as observed.
    std::vector<OutputTransform> output_transforms;
    double logit_margin = 1e-6;
    // Handed to the acquisition (AcquisitionContext::reference, adaptive_reference).
    arma::rowvec reference;
    bool adaptive_reference = false;
};

// The loop's parameters, shared by every algorithm built on it (gp-ucb, gp-ei, ...).
ParameterSchema bo_loop_schema(std::size_t default_budget, std::size_t default_initial);
BoLoopSettings bo_loop_settings(const ParameterSet& parameters);
// The `batch` parameter (BoLoopSettings::batch), for algorithms that let run() propose q points at a
// time; read it with batch_setting.
void add_batch_key(ParameterSchema& schema);
std::size_t batch_setting(const ParameterSet& parameters);

// Points the loop asks to have evaluated next.
struct Proposal {
    arma::mat points;           // q × d, in the objective's units (finite sets: the stored rows)
    arma::uvec candidate_rows;  // finite sets: their rows of SearchSpace::candidate_rows(); boxes: empty
    arma::vec scores;           // the acquisition's score when each was chosen; NaN for a design
};

class BoLoop;

// The points evaluated before there is a model.
class InitialDesign {
public:
    virtual ~InitialDesign();
    virtual Proposal design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const = 0;
};

// Randomly shifted Halton points in boxes (halton_points, mapped by SearchSpace::from_unit);
// `count` distinct rows drawn uniformly (a partial Fisher–Yates shuffle) in finite sets.
class QuasiRandomDesign final : public InitialDesign {
public:
    Proposal design(const SearchSpace& space, std::size_t count, ExperimentRng& rng) const override;
};

// When to stop; asked before every proposal run() makes.
class StoppingPolicy {
public:
    virtual ~StoppingPolicy();
    // The reason to stop now (it becomes RunResult::stop_reason), or empty to go on.
    virtual std::string stop_reason(const BoLoop& loop, RunObserver& observer) = 0;
};

// "budget" once the loop has observed BoLoopSettings::budget evaluations; "observer" when the
// run's observer asks to stop (RunObserver::should_stop).
class BudgetStopping final : public StoppingPolicy {
public:
    std::string stop_reason(const BoLoop& loop, RunObserver& observer) override;
};

// The trace: its columns, and one row after the design (iteration 0) and after every observation.
class LoopStatistics {
public:
    virtual ~LoopStatistics();
    virtual std::vector<TraceColumn> columns(const BoLoop& loop) const = 0;
    // `score`: the acquisition's score of the last point observed (NaN for the design);
    // `cpu_seconds`: this thread's time from the proposal to the observation.
    virtual std::vector<double> row(const BoLoop& loop, double score, double cpu_seconds) const = 0;
};

// One output: iteration, evaluations, value (the last observed), best_value, acquisition,
// cpu_seconds (evaluation-only), simple_regret when the optimum is known, x[0..d) (the last point).
// Several outputs: one value[NAME] column per output (the last observed) and front_size in place
// of value, best_value and simple_regret.
class StandardStatistics final : public LoopStatistics {
public:
    std::vector<TraceColumn> columns(const BoLoop& loop) const override;
    std::vector<double> row(const BoLoop& loop, double score, double cpu_seconds) const override;
};

// Null members take the defaults above.
struct BoLoopPolicies {
    std::shared_ptr<InitialDesign> design;
    std::shared_ptr<StoppingPolicy> stopping;
    std::shared_ptr<LoopStatistics> statistics;
};

class BoLoop {
public:
    // Needs modules for the roles "surrogate" and "acquisition", and an acquisition that scores as many
    // outputs as the objective declares; refuses otherwise naming both (ValidationError).
    BoLoop(RunContext& context, const BoLoopSettings& settings, std::string algorithm, BoLoopPolicies policies = {});
    ~BoLoop();
    BoLoop(const BoLoop&) = delete;
    BoLoop& operator=(const BoLoop&) = delete;

    // Before anything is observed: the initial design (BoLoopSettings::initial_points points,
    // whatever q). Afterwards: q points chosen by the acquisition. The first is the acquisition's
    // optimum; each later one is chosen after fantasising the earlier ones at the posterior mean
    // (the kriging believer: Surrogate::append, then Surrogate::truncate back before returning),
    // so a batch spreads out instead of repeating one point; with several outputs the fantasised
    // values also join the acquisition's front (AcquisitionContext::front). Finite sets never propose a row twice
    // in a batch, nor an evaluated row unless revisit_candidates is set.
    Proposal propose(std::size_t q = 1);
    // Conditions the surrogate on evaluated points (any points of the space, in its units, with
    // one value column per output; finite sets need the rows, from Evaluations::candidate_rows or
    // by being the last proposal's points), updates the incumbent or the front and records a
    // trace row.
    void observe(const Evaluations& evaluations);
    // The design, then propose(batch) / evaluate / observe until the stopping policy stops it.
    RunResult run();
    // The release after stopping: the best point and value (one output) or the Pareto front's
    // points and values (several), the trace, the not-private statement.
    RunResult result(const std::string& stop_reason);

    // What the policies read.
    const RunContext& context() const { return ctx_; }
    const BoLoopSettings& settings() const { return settings_; }
    const std::vector<Output>& outputs() const { return outputs_; }
    std::size_t observations() const { return observed_points_.n_rows; }
    std::size_t iteration() const { return iteration_; }                   // model-based proposals so far
    const arma::mat& observed_points() const { return observed_points_; }  // n × d, objective's units
    const arma::mat& observed_values() const { return observed_values_; }  // n × k, as observed
    // n × a, the objective's auxiliary outputs (Objective::auxiliary_outputs()) of every point.
    const arma::mat& observed_auxiliary() const { return observed_auxiliary_; }
    const std::vector<AuxiliaryOutput>& auxiliary_outputs() const { return auxiliary_outputs_; }
    const arma::rowvec& best_point() const { return best_point_; }  // one output
    double best_value() const;                                      // one output, its own sense
    arma::uvec pareto_front() const;                                // rows of observed_values() no other row dominates
    const Trace& trace() const { return trace_; }

private:
    struct Choice {
        arma::rowvec unit_point;
        double score = 0.0;
        std::size_t row = 0;  // finite sets
    };
    Choice choose(const AcquisitionContext& acquisition_context, const std::vector<bool>& excluded);
    // `fantasy_targets`: the model values of the batch's points chosen so far (several outputs: they
    // join the front, so the next choice sees the gain they would bring as already made).
    AcquisitionContext acquisition_context(const arma::mat& fantasy_targets = {}) const;
    arma::rowvec to_model_targets(const arma::rowvec& values, const arma::rowvec& point) const;
    arma::rowvec from_model_targets(const arma::rowvec& targets) const;
    arma::uvec rows_of(const Evaluations& evaluations) const;

    RunContext& ctx_;
    std::shared_ptr<Surrogate> surrogate_;      // the role "surrogate"
    std::shared_ptr<Acquisition> acquisition_;  // the role "acquisition"
    BoLoopSettings settings_;
    std::string algorithm_;
    BoLoopPolicies policies_;
    const SearchSpace& space_;
    std::vector<Output> outputs_;
    std::vector<AuxiliaryOutput> auxiliary_outputs_;
    arma::rowvec signs_;  // +1 maximised, −1 minimised, per output
    arma::mat candidates_unit_;
    arma::mat sweep_;
    std::vector<bool> evaluated_rows_;
    Proposal pending_;
    double pending_score_ = std::numeric_limits<double>::quiet_NaN();
    double proposal_start_ = 0.0;
    bool timing_ = false;
    std::size_t iteration_ = 0;
    arma::mat observed_points_;
    arma::mat observed_values_;
    arma::mat observed_auxiliary_;
    arma::mat model_targets_;  // n × k, maximisation sense
    arma::rowvec best_point_;
    double best_model_value_ = -std::numeric_limits<double>::infinity();
    Trace trace_;
};

// Runs a BoLoop with the default policies to the end. The result is not private: every evaluated
// value and the best point (or the front) are released as they are.
RunResult run_bo_loop(RunContext& context, const BoLoopSettings& settings, const std::string& algorithm);

// An algorithm that is the loop with a default surrogate (an ARD Matérn-5/2 GP fitted by marginal
// likelihood on standardised values) and a default acquisition; gp-ucb and gp-ei are two of them.
class SequentialBo : public Algorithm {
public:
    SequentialBo(const ParameterSet& parameters, std::string name, std::string default_acquisition,
                 std::string acquisition_doc);
    ~SequentialBo() override;
    std::vector<Role> roles() const override;
    RunResult run(RunContext& context) override;

private:
    BoLoopSettings settings_;
    std::string name_;
    std::string default_acquisition_;
    std::string acquisition_doc_;
};

}  // namespace dpbo
