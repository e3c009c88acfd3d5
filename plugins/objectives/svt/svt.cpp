// DPareto's second illustrative privacy–utility oracle (Avent et al. 2020, §2 and Appendix B): the
// sparse vector technique answering m binary queries, k of them true. Two outputs, both minimised:
// ε of Algorithm 1 (closed form, δ = 0) and 1 − F₁ averaged over random query orders. It holds no
// sensitive records — the queries' true answers are synthetic — so it is cheap enough for a
// near-exact Pareto front by a fine grid.
//
// Trial mode (`trial = private`, each evaluation a trial of a private tuning): the queries' true
// answers (in the order drawn from `seed`) are the private data, one query's answer the unit. Each
// point runs Algorithm 1 once with its noise from the secure layer at a fixed ε (`trial_epsilon`: b
// is calibrated from C, so every trial spends the same pure ε-DP event, its own bound) and the
// space is the cutoff C alone. The value is the fraction of wrong answers over the m queries
// released by the Laplace mechanism (score_epsilon, sensitivity 1/m when one query's answer is
// replaced).
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>
#include <numeric>
#include <random>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "repetitions.hpp"
#include "sparse_vector.hpp"
#include "trial_oracle.hpp"

namespace {

constexpr const char* kOwner = "objective 'svt'";

const std::vector<std::string> kDparetoOnlyKeys{"repetitions"};
const std::vector<std::string> kTrialOnlyKeys{"score_epsilon", "trial_epsilon"};

// DPareto's oracle, and the trial mode's evaluation; SparseVectorTrial adds the PrivateTrials
// capability, so that only an objective made with trial = private has it.
class SparseVectorOracle : public dpbo::Objective, public dpbo::SensitiveData {
public:
    static std::unique_ptr<dpbo::Module> create(const dpbo::ParameterSet& parameters);

    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .integer("queries",
                     {.fallback = 100, .lower = 1, .upper = 1000000, .doc = "m, the binary queries asked (paper: 100)"})
            .integer("true_queries", {.fallback = 10,
                                      .lower = 1,
                                      .upper = 1000000,
                                      .doc = "how many of them are true (paper: 10); at most `queries`"})
            .integer("repetitions", {.fallback = 50,
                                     .lower = 1,
                                     .upper = 100000,
                                     .doc = "random query orders the F1 score is averaged over (paper: 50)"})
            .integer("max_cutoff", {.fallback = 30,
                                    .lower = 2,
                                    .upper = 1000000,
                                    .doc = "upper end of the cutoff dimension C (paper: 30)"})
            .integer("seed", {.fallback = 1,
                              .lower = 0,
                              .doc = "the learner's randomness: repetition r draws its query order and "
                                     "Laplace noise from the stream seeded by (seed, r) at every point "
                                     "(common random numbers), so the oracle is a function of (b, C); in trial "
                                     "mode the order of the private answers is that of repetition 0"});
        dpbo::plugin_data::add_trial_mode_parameters(schema);
        schema.real("trial_epsilon", {.fallback = 1.0,
                                      .lower = 0.0,
                                      .lower_inclusive = false,
                                      .doc = "trial mode: ε of each run of Algorithm 1, fixed (b calibrated from C)"});
        return schema;
    }

    explicit SparseVectorOracle(const dpbo::ParameterSet& parameters)
        : queries_(static_cast<std::size_t>(parameters.integer("queries"))),
          true_queries_(static_cast<std::size_t>(parameters.integer("true_queries"))),
          repetitions_(static_cast<std::size_t>(parameters.integer("repetitions"))),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))),
          mode_(dpbo::plugin_data::oracle_mode(parameters)) {
        dpbo::plugin_data::refuse_keys_of_other_mode(parameters, mode_, kDparetoOnlyKeys, kTrialOnlyKeys, kOwner);
        if (true_queries_ > queries_)
            throw dpbo::ValidationError(
                fmt::format("{}: true_queries = {} exceeds queries = {}", kOwner, true_queries_, queries_));
        // C is an integer: Algorithm 1 stops after ⌈C⌉ positive answers, and the closed-form ε
        // charges 2C/b₂ for the answers — with a fractional C the run could answer ⌈C⌉ > C times
        // and spend more than the oracle says.
        const auto max_cutoff = static_cast<double>(parameters.integer("max_cutoff"));
        space_ = dpbo::SearchSpace::box({{.name = "noise", .lower = 1e-2, .upper = 1e2, .scale = dpbo::Scale::Log},
                                         {.name = "cutoff", .lower = 1.0, .upper = max_cutoff, .integer = true}});
        if (trial_mode()) set_up_trial_mode(parameters);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        if (trial_mode()) return dpbo::plugin_data::trial_score_outputs();
        return {{"epsilon", dpbo::Sense::Minimise}, {"error", dpbo::Sense::Minimise}};
    }
    std::vector<dpbo::AuxiliaryOutput> auxiliary_outputs() const override {
        if (trial_mode())
            return {dpbo::plugin_data::trial_evaluation_output("f1_error", "1 − F1 of this run's answers")};
        return dpbo::plugin_data::repetition_auxiliary_outputs("F1 score");
    }
    std::string data_description() const override {
        return fmt::format("{} synthetic binary queries of sensitivity 1, {} of them true (no personal records)",
                           queries_, true_queries_);
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (trial_mode()) return evaluate_trials(points, request);
        if (points.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("{}: points have {} columns; expected 2 (noise, cutoff)", kOwner, points.n_cols));
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 2);
        result.auxiliary.set_size(points.n_rows, 2);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double noise = points(i, 0);
            const double cutoff = points(i, 1);
            if (!(noise > 0.0) || cutoff != std::round(cutoff) || cutoff < 1.0)
                throw dpbo::RunError(
                    fmt::format("{}: point {} has noise = {} and cutoff = {}; expected noise "
                                "> 0 and an integer cutoff ≥ 1",
                                kOwner, i, noise, cutoff));
            result.values(i, 0) = dpbo::svt::privacy_oracle(noise, cutoff);
            const dpbo::plugin_data::RepetitionErrors errors =
                dpbo::plugin_data::repetition_errors(f1_scores(noise, static_cast<int>(cutoff)));
            result.values(i, 1) = errors.mean;
            dpbo::plugin_data::set_repetition_auxiliary(result.auxiliary, i, errors);
        }
        return result;
    }

protected:
    std::string protected_unit() const {
        return fmt::format("one of the {} queries' true answers (synthetic, no personal records), replaced", queries_);
    }
    // Every trial spends the same two events, so they are their own bound.
    std::vector<dpbo::PrivacyEvent> trial_events() const {
        return {dpbo::PrivacyEvent(dpbo::PureDpEvent(trial_epsilon_), 1,
                                   "sparse vector technique, Algorithm 1 (Lyu et al. 2017, Thm. 4)"),
                score_->event()};
    }

private:
    bool trial_mode() const { return mode_ == dpbo::plugin_data::OracleMode::PrivateTrial; }

    void set_up_trial_mode(const dpbo::ParameterSet& parameters) {
        trial_epsilon_ = parameters.real("trial_epsilon");
        score_.emplace(queries_, parameters.real("score_epsilon"), kOwner);
        // b₁ and b₂ grow with C: at the largest cutoff the release grids must still hold 1/2 and 1
        // (sparse_vector.hpp, the secure run).
        const int largest_cutoff = static_cast<int>(space_.dimensions()[1].upper);
        const dpbo::svt::NoiseSplit split =
            dpbo::svt::split_noise(dpbo::svt::noise_for_epsilon(trial_epsilon_, largest_cutoff), largest_cutoff);
        if (dpbo::privacy::release_grid(split.threshold, "threshold noise") > 0.5 ||
            dpbo::privacy::release_grid(split.answer, "answer noise") > 0.5)
            throw dpbo::ValidationError(
                fmt::format("{}: trial_epsilon = {} with max_cutoff = {} needs Laplace noise of scale {} on the "
                            "answers, too large for the secure release; expected a larger trial_epsilon",
                            kOwner, trial_epsilon_, largest_cutoff, split.answer));
        truth_.assign(queries_, 0);
        std::fill_n(truth_.begin(), true_queries_, 1);
        std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, 0);
        std::shuffle(truth_.begin(), truth_.end(), engine);
        space_ = dpbo::SearchSpace::box({space_.dimensions()[1]});
    }

    dpbo::Evaluations evaluate_trials(const arma::mat& points, const dpbo::EvaluationRequest& request) const {
        if (points.n_cols != 1)
            throw dpbo::RunError(fmt::format("{}: points have {} columns; expected 1 (cutoff) with trial = private",
                                             kOwner, points.n_cols));
        dpbo::PrivacyNoiseSource& noise = dpbo::plugin_data::require_trial_noise(request, kOwner);
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 1);
        result.auxiliary.set_size(points.n_rows, 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double cutoff = points(i, 0);
            if (cutoff != std::round(cutoff) || cutoff < 1.0 || cutoff > space_.dimensions()[0].upper)
                throw dpbo::RunError(fmt::format("{}: point {} has cutoff = {}; expected an integer in 1..{}", kOwner,
                                                 i, cutoff, space_.dimensions()[0].upper));
            const int c = static_cast<int>(cutoff);
            const std::vector<int> answers =
                dpbo::svt::run(truth_, dpbo::svt::noise_for_epsilon(trial_epsilon_, c), c, noise);
            std::size_t wrong = 0;
            for (std::size_t q = 0; q < queries_; ++q) wrong += answers[q] != truth_[q] ? 1 : 0;
            const double error = static_cast<double>(wrong) / static_cast<double>(queries_);
            result.values(i, 0) = score_->release(error, noise);
            result.auxiliary(i, 0) = 1.0 - dpbo::svt::f1_score(truth_, answers);
            result.trial_events.push_back(trial_events());
        }
        return result;
    }

    std::vector<double> f1_scores(double noise, int cutoff) const {
        std::vector<int> truth(queries_, 0);
        std::fill_n(truth.begin(), true_queries_, 1);
        std::vector<double> scores(repetitions_);
        for (std::size_t r = 0; r < repetitions_; ++r) {
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, r);
            std::vector<int> order = truth;
            std::shuffle(order.begin(), order.end(), engine);
            scores[r] = dpbo::svt::f1_score(order, dpbo::svt::run(order, noise, cutoff, engine));
        }
        return scores;
    }

    std::size_t queries_;
    std::size_t true_queries_;
    std::size_t repetitions_;
    std::uint64_t seed_;
    dpbo::plugin_data::OracleMode mode_;
    dpbo::SearchSpace space_;
    // Trial mode only.
    double trial_epsilon_ = 0.0;
    std::optional<dpbo::plugin_data::ErrorScoreRelease> score_;
    std::vector<int> truth_;  // the private answers, in the order they are asked
};

class SparseVectorTrial final : public SparseVectorOracle, public dpbo::PrivateTrials {
public:
    using SparseVectorOracle::SparseVectorOracle;
    std::string trial_neighbouring() const override {
        return "replace one query's true answer (0 <-> 1), which moves that query by 1, the sensitivity the sparse "
               "vector technique assumes";
    }
    std::string trial_protected_unit() const override { return protected_unit(); }
    std::vector<dpbo::PrivacyEvent> trial_bound() const override { return trial_events(); }
};

std::unique_ptr<dpbo::Module> SparseVectorOracle::create(const dpbo::ParameterSet& parameters) {
    if (dpbo::plugin_data::oracle_mode(parameters) == dpbo::plugin_data::OracleMode::PrivateTrial)
        return std::make_unique<SparseVectorTrial>(parameters);
    return std::make_unique<SparseVectorOracle>(parameters);
}

}  // namespace

DPBO_PLUGIN(SparseVectorOracle, "svt", "1.0.0",
            "privacy-utility oracle of the sparse vector technique (DPareto Alg. 1): outputs epsilon "
            "(closed form, delta = 0) and 1 - F1 over random query orders; noise b in [1e-2, 1e2] (log), "
            "integer cutoff C in [1, 30]; the Laplace noise here measures utility only and is drawn by a "
            "statistical sampler; with trial = private each evaluation is one run at a fixed epsilon (noise from "
            "the secure layer) whose fraction of wrong answers is released by the Laplace mechanism, and it declares "
            "its events (PrivateTrials)",
            "Avent, Gonzalez, Diethe, Paleyes, Balle (2020), Algorithm 1 and Appendix B; "
            "Lyu, Su & Li (2017), Alg. 7 / Thm. 4")
