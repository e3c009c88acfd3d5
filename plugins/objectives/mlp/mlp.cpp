// DPareto's MNIST privacy–utility oracle (Avent et al. 2020, §5): the paper's MLP2 — two ReLU hidden
// layers of 128 and 64 units and a softmax output over the 10 digits — or its MLP1 (one hidden layer
// of 1000 units; `hidden_layers`), trained by DP-SGD (Algorithm 3 with per-example clipping of the
// whole parameter vector's gradient; the paper's MNIST runs) or DP-Adam (Algorithm 4). Two outputs,
// both minimised: ε at the objective's δ (paper: 1e-5) from the RDP accountant of the subsampled
// Gaussian with fixed-size lots drawn without replacement (Wang, Balle & Kasiviswanathan 2019,
// replace-one neighbours), and the test error averaged over R trainings (paper: 10).
// Hyperparameters, Table 1's MNIST domain: epochs T ∈ [1, 400] — cut here to [1, max_epochs], see
// the README — and lot size m ∈ [16, 4000] (integers), learning rate η ∈ [1e-3, 0.5] (log scale),
// noise variance σ² ∈ [0.1, 16] (or the noise multiplier σ, as the authors' code reads it:
// `noise_hyperparameter`), clipping norm L ∈ [0.1, 12].
//
// Data: MNIST's 10 000 test images split into training and test images (mnist_split.hpp); the
// paper trained on the 60 000 training images, which are not available here.
//
// Trial mode (`trial = private`, each evaluation a trial of a private tuning): one DP-SGD (or
// DP-Adam) training per point, its lots and noise from the secure layer, over the training images
// less the last `validation_images` of them (a carve by position in the seeded permutation, so
// data-independent); the value is the error on those validation images released by the Laplace
// mechanism (score_epsilon, sensitivity 1/n_val, replace-one, as the training's accounting). The
// lot size and σ are fixed parameters there and the space is (epochs, learning_rate,
// clipping_norm): ε depends on (m/n, σ, steps) only, so every trial is covered by the one at the
// most epochs (trial_bound()).
#include <cmath>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dp_mlp_training.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "fixed_lot_epsilon.hpp"
#include "lot_oracle.hpp"
#include "mlp_network.hpp"
#include "mnist_split.hpp"
#include "repetitions.hpp"
#include "trial_oracle.hpp"

namespace {

constexpr const char* kOwner = "objective 'mlp'";
constexpr std::int64_t kLargestLot = 4000;  // Table 1's MNIST lot sizes: [16, 4000]
constexpr double kWidestLayer = 10000;      // a guard against a typo's memory (a 784 × 10⁴ layer is 31 MB)

// The keys that mean something in one mode only (refused by name in the other).
const std::vector<std::string> kDparetoOnlyKeys{"repetitions", "threads", "delta"};
const std::vector<std::string> kTrialOnlyKeys{"score_epsilon", "validation_images", "trial_lot_size",
                                              "trial_noise_multiplier"};

// DPareto's oracle, and the trial mode's evaluation; MlpTrialOracle adds the PrivateTrials
// capability, so that only an objective made with trial = private has it.
class MlpOracle : public dpbo::Objective, public dpbo::SensitiveData {
public:
    static std::unique_ptr<dpbo::Module> create(const dpbo::ParameterSet& parameters);

    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .choice("optimiser", {"sgd", "adam"}, "sgd",
                    "DP-SGD (Algorithm 3; the paper's MNIST runs) or DP-Adam "
                    "(Algorithm 4)")
            .integer("max_epochs", {.fallback = 64,
                                    .lower = 2,
                                    .upper = 400,
                                    .doc = "upper end of the epochs dimension (Table 1: 400; cut so that a search fits "
                                           "in about an hour here, see docs/methods/dpareto.md)"})
            .real("delta", {.fallback = 1e-5,
                            .lower = 0.0,
                            .upper = 1.0,
                            .lower_inclusive = false,
                            .upper_inclusive = false,
                            .doc = "δ at which ε is reported (paper: 1e-5)"})
            .real_list("hidden_layers", std::vector<double>{128, 64},
                       "the widths of the hidden ReLU layers, in order: 128, 64 is the paper's MLP2, 1000 its MLP1");
        dpbo::plugin_data::add_noise_hyperparameter_parameter(schema);
        dpbo::mlp::add_mnist_split_parameters(schema, 2);
        dpbo::plugin_data::add_repetition_parameters(schema, 10);
        dpbo::plugin_data::add_trial_mode_parameters(schema);
        schema
            .integer("validation_images",
                     {.fallback = 1000,
                      .lower = 1,
                      .unit = "images",
                      .doc = "trial mode: the last training images (in the split's permutation), held out of "
                             "training for the private score"})
            .integer("trial_lot_size",
                     {.fallback = 256, .lower = 1, .unit = "images", .doc = "trial mode: the lot size m, fixed"})
            .real("trial_noise_multiplier",
                  {.fallback = 1.1,
                   .lower = 0.0,
                   .lower_inclusive = false,
                   .doc = "trial mode: the noise multiplier σ (noise (2L/m)σ on the clipped mean), fixed"});
        return schema;
    }

    explicit MlpOracle(const dpbo::ParameterSet& parameters)
        : optimiser_(parameters.text("optimiser") == "adam" ? dpbo::mlp::Optimiser::Adam : dpbo::mlp::Optimiser::Sgd),
          repetitions_(static_cast<std::size_t>(parameters.integer("repetitions"))),
          epsilon_(parameters.real("delta")),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))),
          threads_(static_cast<std::size_t>(parameters.integer("threads"))),
          noise_(dpbo::plugin_data::noise_hyperparameter(parameters)),
          space_(dpbo::SearchSpace::box(
              {{.name = "epochs",
                .lower = 1,
                .upper = static_cast<double>(parameters.integer("max_epochs")),
                .integer = true},
               {.name = "lot_size", .lower = 16, .upper = static_cast<double>(kLargestLot), .integer = true},
               {.name = "learning_rate", .lower = 1e-3, .upper = 0.5, .scale = dpbo::Scale::Log},
               dpbo::plugin_data::noise_dimension(noise_),
               {.name = "clipping_norm", .lower = 0.1, .upper = 12}})),
          split_(dpbo::mlp::load_mnist_split(parameters, kOwner)),
          architecture_(architecture(parameters, split_.training_images.n_rows)),
          mode_(dpbo::plugin_data::oracle_mode(parameters)) {
        dpbo::plugin_data::refuse_keys_of_other_mode(parameters, mode_, kDparetoOnlyKeys, kTrialOnlyKeys, kOwner);
        description_ = fmt::format("MLP {} (ReLU) by {}: {}", fmt::join(architecture_.widths(), "-"),
                                   optimiser_ == dpbo::mlp::Optimiser::Adam ? "DP-Adam" : "DP-SGD", split_.description);
        if (mode_ == dpbo::plugin_data::OracleMode::Dpareto) {
            if (training_images() < static_cast<std::size_t>(kLargestLot))
                throw dpbo::ValidationError(fmt::format(
                    "{}: training_images = {}; with trial = dpareto at least {} (the largest lot size of the space)",
                    kOwner, training_images(), kLargestLot));
            return;
        }
        set_up_trial_mode(parameters);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        return trial_mode() ? dpbo::plugin_data::trial_score_outputs() : dpbo::plugin_data::privacy_utility_outputs();
    }
    std::vector<dpbo::AuxiliaryOutput> auxiliary_outputs() const override {
        if (trial_mode())
            return {dpbo::plugin_data::trial_evaluation_output(
                "test_error",
                fmt::format("the trained network's error on the {} test images", split_.test_images.n_cols))};
        return dpbo::plugin_data::repetition_auxiliary_outputs("test accuracy");
    }
    std::string data_description() const override { return description_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (trial_mode()) return evaluate_trials(points, request);
        return dpbo::plugin_data::evaluate_lot_oracle(
            points, training_images(), noise_, kOwner, epsilon_,
            [&](const dpbo::plugin_data::LotHyperparameters& h) { return repetition_accuracies(settings_from(h)); });
    }

protected:
    std::string protected_unit() const {
        return fmt::format(
            "one of the {} training images of MNIST (one person's digit), replaced; {} of them are trained on, the "
            "other {} are the validation part",
            training_images(), trial_training_images_.n_cols, validation_images_.n_cols);
    }
    // Every trial's events are covered by those at the most epochs (more steps, all else fixed).
    std::vector<dpbo::PrivacyEvent> most_expensive_trial() const {
        return trial_events(static_cast<std::size_t>(space_.dimensions()[0].upper));
    }

private:
    // {inputs, hidden_layers..., classes}; each width a whole number in 1..kWidestLayer.
    static dpbo::mlp::Architecture architecture(const dpbo::ParameterSet& parameters, std::size_t inputs) {
        std::vector<std::size_t> widths{inputs};
        const std::vector<double>& hidden = parameters.real_list("hidden_layers");
        if (hidden.empty())
            throw dpbo::ValidationError(fmt::format(
                "{}: hidden_layers is empty; expected at least one width, e.g. 128, 64 (MLP2) or 1000 (MLP1)", kOwner));
        for (const double width : hidden) {
            if (!(width >= 1 && width <= kWidestLayer && width == std::round(width)))
                throw dpbo::ValidationError(
                    fmt::format("{}: hidden_layers = {}; expected widths that are whole numbers in 1..{}, e.g. 128, 64 "
                                "(MLP2) or 1000 (MLP1)",
                                kOwner, fmt::join(hidden, ", "), kWidestLayer));
            widths.push_back(static_cast<std::size_t>(width));
        }
        widths.push_back(dpbo::mlp::kMnistClasses);
        return dpbo::mlp::Architecture(std::move(widths));
    }

    bool trial_mode() const { return mode_ == dpbo::plugin_data::OracleMode::PrivateTrial; }
    std::size_t training_images() const { return split_.training_images.n_cols; }

    void set_up_trial_mode(const dpbo::ParameterSet& parameters) {
        const auto validation = static_cast<std::size_t>(parameters.integer("validation_images"));
        trial_lot_size_ = static_cast<std::size_t>(parameters.integer("trial_lot_size"));
        trial_noise_multiplier_ = parameters.real("trial_noise_multiplier");
        if (validation >= training_images() || training_images() - validation < trial_lot_size_)
            throw dpbo::ValidationError(
                fmt::format("{}: validation_images = {} leaves {} of the training_images = {} to train on; "
                            "expected at least trial_lot_size = {}",
                            kOwner, validation, validation >= training_images() ? 0 : training_images() - validation,
                            training_images(), trial_lot_size_));
        const std::size_t trained = training_images() - validation;
        score_.emplace(validation, parameters.real("score_epsilon"), kOwner);
        trial_training_images_ = split_.training_images.head_cols(trained);
        trial_training_labels_ = split_.training_labels.head(trained);
        validation_images_ = split_.training_images.tail_cols(validation);
        validation_labels_ = split_.training_labels.tail(validation);
        space_ = dpbo::SearchSpace::box({space_.dimensions()[0], space_.dimensions()[2], space_.dimensions()[4]});
        description_ += fmt::format(
            "; trial mode: trains on the first {} training images, the last {} are the validation part of the "
            "private score",
            trained, validation);
    }

    // The events one trial spends at `epochs`: the subsampled Gaussian as FixedLotEpsilon accounts it
    // (lots of m drawn without replacement from the n_t training images, replace-one), then the score.
    std::vector<dpbo::PrivacyEvent> trial_events(std::size_t epochs) const {
        const std::size_t trained = trial_training_images_.n_cols;
        const dpbo::plugin_data::LotHyperparameters h{.epochs = epochs, .lot_size = trial_lot_size_};
        return {dpbo::PrivacyEvent(
                    dpbo::SubsampledGaussianEvent(static_cast<double>(trial_lot_size_) / static_cast<double>(trained),
                                                  trial_noise_multiplier_, h.steps(trained),
                                                  dpbo::SubsampledGaussianEvent::Sampling::FixedSizeWithoutReplacement,
                                                  dpbo::SubsampledGaussianEvent::Neighbouring::ReplaceOne),
                    1,
                    fmt::format("{} training of the MLP, {} epochs",
                                optimiser_ == dpbo::mlp::Optimiser::Adam ? "DP-Adam" : "DP-SGD", epochs)),
                score_->event()};
    }

    // Row `index` of a trial batch: (epochs, learning_rate, clipping_norm) with the fixed lot and σ.
    dpbo::plugin_data::LotHyperparameters trial_hyperparameters(const arma::rowvec& point, arma::uword index) const {
        const double epochs = point(0);
        const auto positive = [](double x) { return x > 0 && std::isfinite(x); };
        if (epochs != std::round(epochs) || epochs < 1 || !positive(point(1)) || !positive(point(2)))
            throw dpbo::RunError(
                fmt::format("{}: point {} = ({}, {}, {}) is outside the domain: integer epochs ≥ 1 and finite positive "
                            "learning rate and clipping norm",
                            kOwner, index, epochs, point(1), point(2)));
        return {.epochs = static_cast<std::size_t>(epochs),
                .lot_size = trial_lot_size_,
                .learning_rate = point(1),
                .noise_multiplier = trial_noise_multiplier_,
                .clipping_norm = point(2)};
    }

    dpbo::Evaluations evaluate_trials(const arma::mat& points, const dpbo::EvaluationRequest& request) const {
        if (points.n_cols != 3)
            throw dpbo::RunError(fmt::format(
                "{}: points have {} columns; expected 3 (epochs, learning_rate, clipping_norm) with trial = private",
                kOwner, points.n_cols));
        dpbo::PrivacyNoiseSource& noise = dpbo::plugin_data::require_trial_noise(request, kOwner);
        dpbo::Evaluations result;
        result.points = points;
        result.values.set_size(points.n_rows, 1);
        result.auxiliary.set_size(points.n_rows, 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const dpbo::plugin_data::LotHyperparameters h = trial_hyperparameters(points.row(i), i);
            // The initial weights are public randomness (data-independent): the same at every point.
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, 0);
            arma::fvec theta = dpbo::mlp::he_initialisation(architecture_, engine);
            dpbo::mlp::SecureRandomness randomness(noise);
            const dpbo::mlp::TrainingOutcome outcome =
                dpbo::mlp::train(architecture_, std::move(theta), trial_training_images_, trial_training_labels_,
                                 settings_from(h), randomness);
            const double validation_error =
                1.0 - dpbo::mlp::accuracy(architecture_, outcome.theta, validation_images_, validation_labels_);
            result.values(i, 0) = score_->release(validation_error, noise);
            result.auxiliary(i, 0) =
                1.0 - dpbo::mlp::accuracy(architecture_, outcome.theta, split_.test_images, split_.test_labels);
            result.trial_events.push_back(trial_events(h.epochs));
        }
        return result;
    }

    dpbo::mlp::TrainingSettings settings_from(const dpbo::plugin_data::LotHyperparameters& h) const {
        return {.lot = h, .optimiser = optimiser_};
    }

    // The test accuracy of each of the R trainings, repetition r from its own engine (initialisation,
    // lots and noise), so the values do not depend on the thread count.
    std::vector<double> repetition_accuracies(const dpbo::mlp::TrainingSettings& settings) const {
        return dpbo::plugin_data::repetition_values(repetitions_, threads_, [&](std::size_t r) {
            std::mt19937_64 engine = dpbo::plugin_data::repetition_engine(seed_, r);
            arma::fvec theta = dpbo::mlp::he_initialisation(architecture_, engine);
            const dpbo::mlp::TrainingOutcome outcome = dpbo::mlp::train(
                architecture_, std::move(theta), split_.training_images, split_.training_labels, settings, engine);
            return dpbo::mlp::accuracy(architecture_, outcome.theta, split_.test_images, split_.test_labels);
        });
    }

    dpbo::mlp::Optimiser optimiser_;
    std::size_t repetitions_;
    dpbo::plugin_data::FixedLotEpsilon epsilon_;
    std::uint64_t seed_;
    std::size_t threads_;
    dpbo::plugin_data::NoiseHyperparameter noise_;
    dpbo::SearchSpace space_;
    dpbo::mlp::MnistSplit split_;
    dpbo::mlp::Architecture architecture_;
    dpbo::plugin_data::OracleMode mode_;
    std::string description_;
    // Trial mode only.
    std::size_t trial_lot_size_ = 0;
    double trial_noise_multiplier_ = 0.0;
    std::optional<dpbo::plugin_data::ErrorScoreRelease> score_;
    arma::fmat trial_training_images_, validation_images_;
    arma::uvec trial_training_labels_, validation_labels_;
};

class MlpTrialOracle final : public MlpOracle, public dpbo::PrivateTrials {
public:
    using MlpOracle::MlpOracle;
    std::string trial_neighbouring() const override {
        return "replace one training image (replace-one), as the lots drawn without replacement are accounted";
    }
    std::string trial_protected_unit() const override { return protected_unit(); }
    std::vector<dpbo::PrivacyEvent> trial_bound() const override { return most_expensive_trial(); }
};

std::unique_ptr<dpbo::Module> MlpOracle::create(const dpbo::ParameterSet& parameters) {
    if (dpbo::plugin_data::oracle_mode(parameters) == dpbo::plugin_data::OracleMode::PrivateTrial)
        return std::make_unique<MlpTrialOracle>(parameters);
    return std::make_unique<MlpOracle>(parameters);
}

}  // namespace

DPBO_PLUGIN(
    MlpOracle, "mlp", "1.0.0",
    "privacy-utility oracle of the paper's MLP2 (784-128-64-10, ReLU, softmax cross-entropy; hidden_layers = 1000 "
    "gives its MLP1) on MNIST trained "
    "by DP-SGD or DP-Adam with fixed-size lots and per-example clipping: outputs epsilon (RDP accountant, "
    "sampling without replacement, replace-one, delta = 1e-5, tight conversion) and the test error averaged "
    "over R trainings on a seeded split of MNIST's 10 000 test images; Table 1's domain with the epochs cut "
    "(max_epochs); the network computes in single precision and its noise is drawn by a statistical sampler, "
    "since it measures utility only (no model is released); with trial = private each evaluation is one "
    "private training (noise and lots from the secure layer) whose validation error is released by the "
    "Laplace mechanism, and it declares its events (PrivateTrials)",
    "Avent et al. (2020), Algorithms 3-4, Tables 1 and 3; Abadi et al. (2016); Wang, Balle & "
    "Kasiviswanathan (2019), Thms. 9 and 27; He et al. (2015)")
