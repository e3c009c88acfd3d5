// DPareto's first illustrative privacy–utility oracle (Avent et al. 2020, §2, Fig. 1): logistic
// regression on Adult trained by bolt-on projected SGD and privatised by Gaussian output perturbation
// (Wu et al. 2017, Algorithm 2). Two outputs, both minimised: ε at the objective's δ (paper: 1e-6)
// from the analytic Gaussian mechanism (Balle & Wang 2018) for noise σ and sensitivity 4/(γn), and
// the test error averaged over R trainings (paper: 50). Hyperparameters: γ ∈ [1e-4, 1] and
// σ ∈ [0.1, 10], both on a log scale.
//
// Data: LIBSVM's a9a training split (32 561 rows, the learner's private data) and a9a.t (16 281
// rows) for testing, shipped with logreg-validation; the authors used the smaller a1a split. Rows are
// scaled by the public bound 1/√14 (an a9a row has at most 14 ones) — the authors' code divided by
// the largest row norm of both splits, a data-dependent constant.
//
// Trial mode (`trial = private`, each evaluation a trial of a private tuning): one training per
// point on the training rows less the last `validation_records` of them (a carve by position), its
// output perturbation drawn by the secure layer at a fixed privacy `trial_mu`: σ = Δ(γ)/μ with Δ =
// 4/(γ n_t), so the release is μ-GDP at every γ (a gdp event, the same for every trial, so it is
// its own bound) and the space is the regularisation γ alone. The value is the error on the
// validation rows released by the Laplace mechanism (score_epsilon, sensitivity 1/n_val,
// replace-one like Δ's).
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <list>
#include <map>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "adult_split.hpp"
#include "projected_sgd.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "repetitions.hpp"
#include "trial_oracle.hpp"

namespace {

constexpr const char* kOwner = "objective 'bolt-on-logreg'";
// Trained weights are remembered per γ (R × 123 doubles each): a grid over (γ, σ) trains each γ once.
constexpr std::size_t kCachedRegularisations = 128;

const std::vector<std::string> kDparetoOnlyKeys{"repetitions", "threads", "delta"};
const std::vector<std::string> kTrialOnlyKeys{"score_epsilon", "validation_records", "trial_mu"};

// DPareto's oracle, and the trial mode's evaluation; BoltOnLogregTrial adds the PrivateTrials
// capability, so that only an objective made with trial = private has it.
class BoltOnLogreg : public dpbo::Objective, public dpbo::SensitiveData {
public:
    static std::unique_ptr<dpbo::Module> create(const dpbo::ParameterSet& parameters);

    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        dpbo::plugin_data::add_adult_split_parameters(schema, 2);
        dpbo::plugin_data::add_repetition_parameters(schema, 50);
        schema
            .integer("passes", {.fallback = 10,
                                .lower = 1,
                                .upper = 10000,
                                .doc = "epochs of projected SGD with batch size 1 (paper: 10)"})
            .real("delta", {.fallback = 1e-6,
                            .lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .upper_inclusive = false,
                            .doc = "δ at which ε is reported (paper: 1e-6)"});
        dpbo::plugin_data::add_trial_mode_parameters(schema);
        schema
            .integer("validation_records", {.fallback = 4000,
                                            .lower = 1,
                                            .unit = "rows",
                                            .doc = "trial mode: the last training rows, held out of training for "
                                                   "the private score"})
            .real("trial_mu", {.fallback = 1.0,
                               .lower = 0.0,
                               .lower_inclusive = false,
                               .doc = "trial mode: μ-GDP of the output perturbation, fixed (σ = 4/(γ n μ))"});
        return schema;
    }

    explicit BoltOnLogreg(const dpbo::ParameterSet& parameters)
        : repetitions_(static_cast<std::size_t>(parameters.integer("repetitions"))),
          passes_(static_cast<std::size_t>(parameters.integer("passes"))),
          delta_(parameters.real("delta")),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))),
          threads_(static_cast<std::size_t>(parameters.integer("threads"))),
          mode_(dpbo::plugin_data::oracle_mode(parameters)),
          space_(dpbo::SearchSpace::box(
              {{.name = "regularisation", .lower = 1e-4, .upper = 1.0, .scale = dpbo::Scale::Log},
               {.name = "noise", .lower = 0.1, .upper = 10.0, .scale = dpbo::Scale::Log}})) {
        dpbo::plugin_data::AdultSplit split = dpbo::plugin_data::load_adult_split(parameters, kOwner);
        training_ = std::move(split.training);
        test_ = std::move(split.test);
        description_ = std::move(split.description);
        dpbo::plugin_data::refuse_keys_of_other_mode(parameters, mode_, kDparetoOnlyKeys, kTrialOnlyKeys, kOwner);
        if (trial_mode()) set_up_trial_mode(parameters);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        if (trial_mode()) return dpbo::plugin_data::trial_score_outputs();
        return {{"epsilon", dpbo::Sense::Minimise}, {"error", dpbo::Sense::Minimise}};
    }
    std::vector<dpbo::AuxiliaryOutput> auxiliary_outputs() const override {
        if (trial_mode())
            return {dpbo::plugin_data::trial_evaluation_output(
                "test_error", fmt::format("the released weights' error on the {} test rows", test_.rows()))};
        return dpbo::plugin_data::repetition_auxiliary_outputs("test accuracy");
    }
    std::string data_description() const override { return description_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (trial_mode()) return evaluate_trials(points, request);
        if (points.n_cols != 2)
            throw dpbo::RunError(
                fmt::format("{}: points have {} columns; expected 2 (regularisation, noise)", kOwner, points.n_cols));
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 2);
        result.auxiliary.set_size(points.n_rows, 2);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double gamma = points(i, 0);
            const double sigma = points(i, 1);
            if (!(gamma > 0.0) || !(sigma > 0.0))
                throw dpbo::RunError(fmt::format(
                    "{}: point {} has regularisation = {} and noise = {}; both must be > 0", kOwner, i, gamma, sigma));
            // Output perturbation w + N(0, σ²I) of a Δ-sensitive vector is (Δ/σ)-GDP, whose exact (ε, δ)
            // curve is the analytic Gaussian mechanism's (Balle & Wang 2018, Thm. 8).
            const double sensitivity = dpbo::bolt_on_logreg::weight_sensitivity(gamma, training_.rows());
            result.values(i, 0) = dpbo::gdp_epsilon(sensitivity / sigma, delta_);
            const dpbo::plugin_data::RepetitionErrors errors =
                dpbo::plugin_data::repetition_errors(accuracies(gamma, sigma));
            result.values(i, 1) = errors.mean;
            dpbo::plugin_data::set_repetition_auxiliary(result.auxiliary, i, errors);
        }
        return result;
    }

protected:
    std::string protected_unit() const {
        return fmt::format(
            "one of the {} training rows of Adult (a9a) (one person), replaced; {} of them are trained on, "
            "the other {} are the validation part",
            training_.rows() + validation_.rows(), training_.rows(), validation_.rows());
    }
    // Every trial spends the same two events, so they are their own bound.
    std::vector<dpbo::PrivacyEvent> trial_events() const {
        return {dpbo::PrivacyEvent(dpbo::GdpEvent(trial_mu_), 1,
                                   "bolt-on projected SGD, Gaussian output perturbation (noise 4/(gamma n mu))"),
                score_->event()};
    }

private:
    bool trial_mode() const { return mode_ == dpbo::plugin_data::OracleMode::PrivateTrial; }

    void set_up_trial_mode(const dpbo::ParameterSet& parameters) {
        const auto validation = static_cast<std::size_t>(parameters.integer("validation_records"));
        if (validation + 2 > training_.rows())
            throw dpbo::ValidationError(
                fmt::format("{}: validation_records = {} leaves fewer than 2 of the training_records = {} to train on",
                            kOwner, validation, training_.rows()));
        trial_mu_ = parameters.real("trial_mu");
        score_.emplace(validation, parameters.real("score_epsilon"), kOwner);
        dpbo::plugin_data::CarvedRows carved = dpbo::plugin_data::carve_last_rows(training_, validation);
        description_ += fmt::format(
            "; trial mode: trains on the first {} training rows, the last {} are the validation part of the "
            "private score",
            carved.training.rows(), validation);
        training_ = std::move(carved.training);
        validation_ = std::move(carved.validation);
        space_ = dpbo::SearchSpace::box({space_.dimensions()[0]});
    }

    dpbo::Evaluations evaluate_trials(const arma::mat& points, const dpbo::EvaluationRequest& request) const {
        if (points.n_cols != 1)
            throw dpbo::RunError(fmt::format(
                "{}: points have {} columns; expected 1 (regularisation) with trial = private", kOwner, points.n_cols));
        dpbo::PrivacyNoiseSource& noise = dpbo::plugin_data::require_trial_noise(request, kOwner);
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 1);
        result.auxiliary.set_size(points.n_rows, 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const double gamma = points(i, 0);
            if (!(gamma > 0.0) || !std::isfinite(gamma))
                throw dpbo::RunError(fmt::format("{}: point {} has regularisation = {}; expected a finite number > 0",
                                                 kOwner, i, gamma));
            // The pass order is public randomness: Wu et al.'s bound holds for every order.
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, 0, 0);
            const arma::vec weights = dpbo::bolt_on_logreg::train_projected_sgd(
                training_, dpbo::plugin_data::kAdultFeatures, {.regularisation = gamma, .passes = passes_}, engine);
            // σ ≥ Δ/μ: Δ and the quotient are each rounded up by one step, so Δ/σ never exceeds μ.
            const double sensitivity = std::nextafter(dpbo::bolt_on_logreg::weight_sensitivity(gamma, training_.rows()),
                                                      std::numeric_limits<double>::max());
            const double sigma = std::nextafter(sensitivity / trial_mu_, std::numeric_limits<double>::max());
            const arma::vec released = dpbo::privacy::gaussian_release(weights, sigma, noise);
            const double validation_error = 1.0 - dpbo::plugin_data::linear_accuracy(validation_, released);
            result.values(i, 0) = score_->release(validation_error, noise);
            result.auxiliary(i, 0) = 1.0 - dpbo::plugin_data::linear_accuracy(test_, released);
            result.trial_events.push_back(trial_events());
        }
        return result;
    }

    const std::vector<arma::vec>& trained(double gamma) {
        if (const auto found = cache_.find(gamma); found != cache_.end()) return found->second;
        std::vector<arma::vec> weights(repetitions_);
        dpbo::plugin_data::for_each_repetition(repetitions_, threads_, [&](std::size_t r) {
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, r, 0);
            weights[r] = dpbo::bolt_on_logreg::train_projected_sgd(
                training_, dpbo::plugin_data::kAdultFeatures, {.regularisation = gamma, .passes = passes_}, engine);
        });
        if (cache_order_.size() == kCachedRegularisations) {
            cache_.erase(cache_order_.front());
            cache_order_.pop_front();
        }
        cache_order_.push_back(gamma);
        return cache_.emplace(gamma, std::move(weights)).first->second;
    }

    // The noise here only measures utility (dpbo releases no model), so a statistical normal
    // sampler is used; each repetition's noise direction is the same at every point.
    std::vector<double> accuracies(double gamma, double sigma) {
        const std::vector<arma::vec>& weights = trained(gamma);
        std::vector<double> accuracies(repetitions_);
        dpbo::plugin_data::for_each_repetition(repetitions_, threads_, [&](std::size_t r) {
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, r, 1);
            std::normal_distribution<double> normal;
            arma::vec noisy = weights[r];
            for (double& entry : noisy) entry += sigma * normal(engine);
            accuracies[r] = dpbo::plugin_data::linear_accuracy(test_, noisy);
        });
        return accuracies;
    }

    std::size_t repetitions_;
    std::size_t passes_;
    double delta_;
    std::uint64_t seed_;
    std::size_t threads_;
    dpbo::plugin_data::OracleMode mode_;
    dpbo::SearchSpace space_;
    dpbo::plugin_data::SparseRows training_;
    dpbo::plugin_data::SparseRows test_;
    std::string description_;
    // Trial mode only: training_ is then the rows trained on, validation_ the rest.
    dpbo::plugin_data::SparseRows validation_;
    double trial_mu_ = 0.0;
    std::optional<dpbo::plugin_data::ErrorScoreRelease> score_;
    std::map<double, std::vector<arma::vec>> cache_;
    std::list<double> cache_order_;
};

class BoltOnLogregTrial final : public BoltOnLogreg, public dpbo::PrivateTrials {
public:
    using BoltOnLogreg::BoltOnLogreg;
    std::string trial_neighbouring() const override {
        return "replace one training row (replace-one), for which the trained weights' L2 sensitivity is 4/(gamma n)";
    }
    std::string trial_protected_unit() const override { return protected_unit(); }
    std::vector<dpbo::PrivacyEvent> trial_bound() const override { return trial_events(); }
};

std::unique_ptr<dpbo::Module> BoltOnLogreg::create(const dpbo::ParameterSet& parameters) {
    if (dpbo::plugin_data::oracle_mode(parameters) == dpbo::plugin_data::OracleMode::PrivateTrial)
        return std::make_unique<BoltOnLogregTrial>(parameters);
    return std::make_unique<BoltOnLogreg>(parameters);
}

}  // namespace

DPBO_PLUGIN(BoltOnLogreg, "bolt-on-logreg", "1.0.0",
            "privacy-utility oracle of logistic regression on Adult (a9a) by bolt-on projected SGD with Gaussian "
            "output perturbation: outputs epsilon (analytic Gaussian, delta = 1e-6, sensitivity 4/(gamma n)) and "
            "the test error averaged over 50 trainings; regularisation gamma in [1e-4, 1], noise sigma in [0.1, 10]; "
            "the output noise here measures utility only and is drawn by a statistical sampler; with trial = private "
            "each evaluation is one private training (mu-GDP output perturbation by the secure layer) whose "
            "validation error is released by the Laplace mechanism, and it declares its events (PrivateTrials)",
            "Avent et al. (2020), §2 and Fig. 1; Wu, Li, Kumar, Chaudhuri, Jha & Naughton (2017), Algorithm 2; "
            "Balle & Wang (2018), Thm. 8")
