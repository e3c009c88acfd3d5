// Private selection among trials that are themselves private mechanisms (PrivateTrials): draw K from
// a stated distribution, run K trials with hyperparameters from a prior fixed before the data, and
// release only the best trial's hyperparameters and privatised score (Papernot & Steinke 2022,
// "Hyperparameter tuning with Renyi differential privacy", ICLR: Thm 2 for the truncated negative
// binomial family, Thm 6 for Poisson). Or Liu & Talwar 2019's thresholded random stopping: after
// each trial whose score does not pass τ, stop with probability γ = 1/E[K] — equivalently, the
// number of coins before the stop is drawn first (K ~ geometric with mean 1/γ, the coins do not
// depend on the data) and the first of those K trials that passes τ is released, or nothing.
//
// The whole selection is one charge, a RepeatAndSelectEvent made before the first trial through
// PrivacyLedger::charge_and_draw; K and every hyperparameter come from that charge's secure stream.
// The evaluator is then told to check every trial against the bound (Evaluator::cover_trials)
// instead of composing them. Only the released trial leaves the run: the other trials' scores and
// hyperparameters, and K itself, are kept as evaluation-only records, as the paper requires (K is
// hidden; whoever watches the compute sees it, which the statement says).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "trial_bound.hpp"
#include "trial_prior.hpp"
#include "trial_selection.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/trial_count.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

namespace {

using dpbo::private_search::TrialPrior;
using Release = dpbo::RepeatAndSelectEvent::Release;

constexpr const char* kOwner = "algorithm 'private-search'";
// K × d hyperparameters are drawn before the first trial; beyond this many trials a run is refused
// rather than allowed to exhaust memory on an unlucky tail draw.
constexpr std::uint64_t kMostTrials = 1'000'000;

class PrivateSearch final : public dpbo::Algorithm {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .text("count", "geometric:mean=10",
                  "how many trials K, drawn before the first: fixed:k=K (composition), geometric:mean=M, "
                  "logarithmic:mean=M, negative-binomial:mean=M,eta=E or poisson:mean=M (Papernot & Steinke 2022)")
            .choice("prior", {"random", "grid"}, "random",
                    "where the trials' hyperparameters come from: uniform over the space (its log and integer "
                    "dimensions respected) or uniform over a grid of grid_points levels per dimension; "
                    "independent draws from the selection's secure stream either way")
            .integer("grid_points", {.fallback = 5, .lower = 2, .doc = "levels per dimension of prior = grid"})
            .choice("release", {"best", "first-above-threshold"}, "best",
                    "best: release the best of the K trials; first-above-threshold: Liu & Talwar's thresholded "
                    "random stopping, releasing the first trial whose privatised score passes threshold "
                    "(needs count = geometric:mean=M, stopping probability 1/M per trial below it)")
            .real("threshold", {.doc = "τ of release = first-above-threshold, in the objective's units (passes: at "
                                       "least τ for a maximised score, at most τ for a minimised one)"})
            .text("trial", std::nullopt,
                  "events one trial spends, separated by ';' (e.g. 'laplace:scale=0.1,sensitivity=0.01'): the "
                  "bound every trial must stay within, needed when the objective declares none")
            .integer("batch", {.fallback = 1,
                               .lower = 1,
                               .unit = "trials",
                               .doc = "trials evaluated per batch (for --workers and MPI); K and every trial's "
                                      "hyperparameters are drawn before the first, so batching changes no trial"});
        return schema;
    }

    explicit PrivateSearch(const dpbo::ParameterSet& parameters)
        : count_(dpbo::TrialCount::parse(parameters.text("count"))),
          prior_(parameters.text("prior") == "grid" ? TrialPrior::Kind::Grid : TrialPrior::Kind::Random),
          grid_points_(static_cast<std::size_t>(parameters.integer("grid_points"))),
          release_(parameters.text("release") == "best" ? Release::Best : Release::FirstAboveThreshold),
          threshold_(parameters.has("threshold") ? std::optional<double>(parameters.real("threshold")) : std::nullopt),
          trial_(parameters.has("trial") ? std::optional<std::string>(parameters.text("trial")) : std::nullopt),
          batch_(static_cast<std::size_t>(parameters.integer("batch"))) {
        count_.validate();
        if (release_ == Release::FirstAboveThreshold) {
            if (!threshold_)
                throw dpbo::ValidationError(fmt::format(
                    "{}: release = first-above-threshold needs threshold (τ, in the objective's units)", kOwner));
            const bool geometric =
                count_.family == dpbo::TrialCount::Family::TruncatedNegativeBinomial && count_.eta == 1.0;
            if (!geometric)
                throw dpbo::ValidationError(fmt::format(
                    "{}: release = first-above-threshold with count = '{}'; allowed: count = geometric:mean=M "
                    "(Liu & Talwar's stopping probability γ = 1/M per trial below the threshold)",
                    kOwner, count_.text()));
        } else if (threshold_) {
            throw dpbo::ValidationError(
                fmt::format("{}: threshold = {} applies only to release = first-above-threshold", kOwner, *threshold_));
        }
    }

    std::vector<dpbo::Role> roles() const override {
        return {{.name = "accountant",
                 .kind = dpbo::ModuleKind::Accountant,
                 .required = true,
                 .default_module = "rdp",
                 .doc = "composes the selection: Papernot & Steinke's RDP bound over the trial's RDP curve, stated "
                        "as (ε, δ) at its delta"}};
    }

    dpbo::RunResult run(dpbo::RunContext& context) override {
        dpbo::Objective& objective = context.objective;
        const dpbo::PrivateTrials* trials = dpbo::capability<dpbo::PrivateTrials>(objective);
        if (trials == nullptr)
            throw dpbo::ValidationError(fmt::format(
                "{} selects among trials that are private learners, and {} does not provide PrivateTrials (each "
                "evaluation a private mechanism that declares its events); to tune an objective whose values are "
                "exact, use random-search or grid-search with a mechanism, dp-ucb or dp-gibo",
                kOwner, objective.describe_origin()));
        const std::vector<dpbo::Output> outputs = objective.outputs();
        if (outputs.size() != 1)
            throw dpbo::ValidationError(
                fmt::format("{}: {} has {} outputs; a selection of the best trial needs one score", kOwner,
                            objective.describe_origin(), outputs.size()));
        const dpbo::SearchSpace& space = objective.space();
        if (const auto* finite = dpbo::capability<dpbo::FiniteCandidates>(objective);
            finite && finite->candidates().sensitive())
            throw dpbo::ValidationError(
                fmt::format("{}: the candidate rows of {} are sensitive data; a prior must be fixed before the data",
                            kOwner, objective.describe_origin()));

        // Everything a bad setting could refuse is checked before the charge, so a refusal costs nothing.
        const std::vector<dpbo::PrivacyEvent> bound =
            dpbo::private_search::resolve_trial_bound(*trials, trial_, kOwner);
        const TrialPrior prior(space, prior_, grid_points_, kOwner);
        context.ledger.set_scope(trials->trial_neighbouring(), trials->trial_protected_unit());
        const dpbo::PrivacyEvent selection(dpbo::RepeatAndSelectEvent(bound, count_, release_), 1,
                                           fmt::format("{} among trials, {}", selection_words(), count_.describe()));
        dpbo::PrivacyNoiseSource& stream = context.ledger.charge_and_draw(selection);
        const std::uint64_t k = count_.draw(stream);
        if (k > kMostTrials)
            throw dpbo::RunError(fmt::format("{}: K = {} trials drawn from {}; more than {} are not run", kOwner, k,
                                             count_.text(), kMostTrials));
        const arma::mat points = prior.draw(static_cast<std::size_t>(k), stream);
        context.evaluator.cover_trials(bound);

        const dpbo::Sense sense = outputs.front().sense;
        dpbo::RunResult result;
        const std::vector<dpbo::AuxiliaryOutput> auxiliary = objective.auxiliary_outputs();
        result.trace.set_columns(trace_columns(space.dim(), auxiliary));
        arma::vec scores(points.n_rows, arma::fill::zeros);
        arma::mat evaluated = points;  // as the objective evaluated them
        std::optional<std::size_t> chosen;
        std::size_t run_trials = 0;
        for (std::size_t first = 0; first < points.n_rows && !chosen; first += batch_) {
            const std::size_t last = std::min<std::size_t>(first + batch_, points.n_rows) - 1;
            const dpbo::Evaluations batch =
                context.evaluator.evaluate(objective, points.rows(first, last), {.rng = &context.rng});
            for (std::size_t i = 0; i < batch.size(); ++i) {
                scores(first + i) = batch.values(i, 0);
                evaluated.row(first + i) = batch.points.row(i);
                add_trace_row(result.trace, first + i, batch.points.row(i), batch.values(i, 0),
                              batch.auxiliary.n_cols == 0 ? arma::rowvec() : arma::rowvec(batch.auxiliary.row(i)));
            }
            run_trials = last + 1;
            if (release_ == Release::FirstAboveThreshold) {
                if (const auto passing =
                        dpbo::private_search::first_passing_trial(batch.values.col(0), sense, *threshold_))
                    chosen = first + *passing;
            }
        }
        if (release_ == Release::Best) chosen = dpbo::private_search::best_trial(scores, sense);

        result.evaluations = run_trials;
        result.released.push_back({"selected",
                                   "1 when a trial is released, 0 when none is (K = 0, or no trial "
                                   "passed the threshold)",
                                   arma::mat{chosen ? 1.0 : 0.0}});
        if (chosen) {
            result.released.push_back(
                {"best_point", "the released trial's hyperparameters", arma::mat(evaluated.row(*chosen))});
            result.released.push_back({"best_score", "the released trial's privatised score, as the trial released it",
                                       arma::mat{scores(*chosen)}});
        }
        result.evaluation_only.push_back(
            {"trials_run",
             "K: the number of trials run, never released (Papernot & Steinke: K is hidden); visible to whoever "
             "watches the compute",
             arma::mat{static_cast<double>(run_trials)}});
        result.stop_reason = !chosen                     ? (k == 0 ? "K = 0: no trial run, nothing released"
                                                                   : "no trial passed the threshold: nothing released")
                             : release_ == Release::Best ? "best of the K trials released"
                                                         : "a trial passed the threshold";
        result.privacy = statement(bound, prior);
        return result;
    }

private:
    std::string selection_words() const {
        return release_ == Release::Best ? "selection of the best trial"
                                         : fmt::format("selection of the first trial scoring past τ = {}", *threshold_);
    }

    // Which theorem the ledger's numbers rest on, in the words of the statement.
    std::string mechanism_words() const {
        using Family = dpbo::TrialCount::Family;
        if (release_ == Release::FirstAboveThreshold)
            return fmt::format(
                "{}, stopping with probability 1/{} after each trial below it (Liu & Talwar 2019, "
                "thresholded random stopping; the stop drawn first as K ~ geometric)",
                selection_words(), count_.mean);
        const char* theorem = count_.family == Family::Fixed     ? "a fixed K: composition of the K trials"
                              : count_.family == Family::Poisson ? "Papernot & Steinke 2022, Thm 6"
                                                                 : "Papernot & Steinke 2022, Thm 2";
        return fmt::format("{} of K trials, {}, drawn by the secure layer before the first ({})", selection_words(),
                           count_.describe(), theorem);
    }

    static std::vector<dpbo::TraceColumn> trace_columns(std::size_t dim,
                                                        const std::vector<dpbo::AuxiliaryOutput>& auxiliary) {
        // Every trial's hyperparameters, score and auxiliary outputs (a test error, for experiments):
        // the run's own records, never released.
        std::vector<dpbo::TraceColumn> columns = {{"trial", true}};
        for (auto& column : dpbo::Trace::vector_columns("x", dim, true)) columns.push_back(column);
        columns.push_back({"score", true});
        for (const auto& output : auxiliary) columns.push_back({output.name, true});
        return columns;
    }

    static void add_trace_row(dpbo::Trace& trace, std::size_t trial, const arma::rowvec& point, double score,
                              const arma::rowvec& auxiliary) {
        std::vector<double> row = {static_cast<double>(trial + 1)};
        row.insert(row.end(), point.begin(), point.end());
        row.push_back(score);
        row.insert(row.end(), auxiliary.begin(), auxiliary.end());
        trace.add_row(std::move(row));
    }

    dpbo::PrivacyStatement statement(const std::vector<dpbo::PrivacyEvent>& bound, const TrialPrior& prior) const {
        dpbo::PrivacyStatement words;
        words.notion = dpbo::PrivacyNotion::Renyi;  // the numbers are the ledger's
        words.released = {
            "one trial: its hyperparameters (best_point) and its privatised score (best_score), or nothing "
            "(selected = 0)"};
        words.assumptions = {
            fmt::format("every trial spends no more than its declared bound '{}' (the host checks each trial's "
                        "events against it)",
                        dpbo::private_search::trial_bound_text(bound)),
            "K, the number of trials run, is not released: the adversary sees only the released trial (K is "
            "visible to whoever watches the compute, and kept in the run's evaluation-only records)",
            fmt::format("the trials' hyperparameters are drawn independently from a prior fixed before the data: {}",
                        prior.describe())};
        words.mechanism = mechanism_words();
        return words;
    }

    dpbo::TrialCount count_;
    TrialPrior::Kind prior_;
    std::size_t grid_points_;
    Release release_;
    std::optional<double> threshold_;
    std::optional<std::string> trial_;
    std::size_t batch_;
};

}  // namespace

DPBO_PLUGIN(PrivateSearch, "private-search", "1.0.0",
            "private selection among trials that are private learners: K drawn first, K trials from a prior, only "
            "the best (or the first past a threshold) released, one accounted selection",
            "Papernot & Steinke (2022), Hyperparameter tuning with Renyi differential privacy, ICLR, Thm 2 and 6; "
            "Liu & Talwar (2019), Private selection from private candidates, STOC")
