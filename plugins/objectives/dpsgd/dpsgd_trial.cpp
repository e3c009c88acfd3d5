#include "dpsgd_trial.hpp"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "adult_split.hpp"
#include "dp_linear_training.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/space.hpp"
#include "libsvm_reader.hpp"
#include "trial_oracle.hpp"
#include "trial_score.hpp"

namespace dpbo::dpsgd {

namespace {

// Rows first .. first + count − 1 of `rows`.
plugin_data::SparseRows slice(const plugin_data::SparseRows& rows, std::size_t first, std::size_t count) {
    plugin_data::SparseRows out;
    out.labels.set_size(count);
    for (std::size_t r = first; r < first + count; ++r) {
        for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) {
            out.index.push_back(rows.index[k]);
            out.value.push_back(rows.value[k]);
        }
        out.starts.push_back(out.index.size());
        out.labels(r - first) = rows.labels(r);
    }
    return out;
}

std::size_t misclassified(const plugin_data::SparseRows& rows, const arma::vec& w) {
    return static_cast<std::size_t>(
        std::llround((1.0 - plugin_data::linear_accuracy(rows, w)) * static_cast<double>(rows.rows())));
}

class DpSgdTrials final : public Objective, public SensitiveData, public PrivateTrials {
public:
    DpSgdTrials(const ParameterSet& parameters, const std::string& owner)
        : owner_(owner),
          model_(parameters.text("model") == "svm" ? Model::LinearSvm : Model::LogisticRegression),
          optimiser_(parameters.text("optimiser") == "adam" ? Optimiser::Adam : Optimiser::Sgd),
          sigma_(parameters.real("trial_noise_multiplier")),
          lot_size_(static_cast<std::size_t>(parameters.integer("trial_lot_size"))),
          score_epsilon_(parameters.real("score_epsilon")),
          max_epochs_(static_cast<std::size_t>(parameters.integer("max_epochs"))) {
        const std::vector<double> rates = parameters.real_list("learning_rates");
        if (rates.size() != 2 || !(rates[0] > 0.0) || !(rates[0] < rates[1]) || !std::isfinite(rates[1]))
            throw ValidationError(fmt::format("{}: learning_rates needs two finite numbers 0 < low < high", owner_));
        space_ = SearchSpace::box(
            {{.name = "epochs", .lower = 1, .upper = static_cast<double>(max_epochs_), .integer = true},
             {.name = "learning_rate", .lower = rates[0], .upper = rates[1], .scale = Scale::Log},
             {.name = "clipping_norm", .lower = 0.1, .upper = 4}});
        plugin_data::AdultSplit split = plugin_data::load_adult_split(parameters, owner_);
        const auto validation = static_cast<std::size_t>(parameters.integer("validation_records"));
        const std::size_t rows = split.training.rows();
        if (validation + lot_size_ > rows)
            throw ValidationError(fmt::format(
                "{}: validation_records = {} leaves {} of the {} training records for training, fewer than one lot "
                "(trial_lot_size = {}); allowed: validation_records <= {}",
                owner_, validation, rows > validation ? rows - validation : 0, rows, lot_size_, rows - lot_size_));
        // The validation part is carved out of the private rows before any training: its last rows.
        training_ = slice(split.training, 0, rows - validation);
        validation_ = slice(split.training, rows - validation, validation);
        test_ = std::move(split.test);
        description_ = fmt::format("trials of DP-{} on {} (training {} rows, validation {} rows, both private)",
                                   optimiser_ == Optimiser::Adam ? "Adam" : "SGD", split.description, training_.rows(),
                                   validation_.rows());
    }

    const SearchSpace& space() const override { return space_; }
    std::vector<Output> outputs() const override { return {{"validation_error", Sense::Minimise}}; }
    std::vector<AuxiliaryOutput> auxiliary_outputs() const override {
        return {{"test_error",
                 "error of the trial's privately trained model on the public test rows (a9a.t): post-processing of "
                 "its DP-SGD, covered by the trial's subsampled-Gaussian event"}};
    }
    std::string data_description() const override { return description_; }

    std::string trial_neighbouring() const override { return "replace one record"; }
    std::string trial_protected_unit() const override {
        return "one row of the private a9a training rows (its training or its validation part)";
    }
    std::vector<PrivacyEvent> trial_bound() const override { return events(max_epochs_); }

    Evaluations evaluate(const arma::mat& points, const EvaluationRequest& request) override {
        if (request.trial_noise == nullptr)
            throw RunError(
                fmt::format("{}: trial = private draws its noise from the request's trial noise, and the "
                            "request carries none",
                            owner_));
        Evaluations out;
        out.points = points;
        out.values.set_size(points.n_rows, 1);
        out.auxiliary.set_size(points.n_rows, 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const auto epochs = static_cast<std::size_t>(std::llround(points(i, 0)));
            TrainingSettings settings{.lot = {.epochs = epochs,
                                              .lot_size = lot_size_,
                                              .learning_rate = points(i, 1),
                                              .noise_multiplier = sigma_,
                                              .clipping_norm = points(i, 2)},
                                      .model = model_,
                                      .optimiser = optimiser_};
            const arma::vec w = train_private(training_, plugin_data::kAdultFeatures, settings, *request.trial_noise);
            out.values(i, 0) = plugin_data::release_error_rate(misclassified(validation_, w), validation_.rows(),
                                                               score_epsilon_, *request.trial_noise);
            out.auxiliary(i, 0) = 1.0 - plugin_data::linear_accuracy(test_, w);
            out.trial_events.push_back(events(epochs));
        }
        return out;
    }

private:
    std::vector<PrivacyEvent> events(std::size_t epochs) const {
        const std::size_t n = training_.rows();
        return {PrivacyEvent(SubsampledGaussianEvent(static_cast<double>(lot_size_) / static_cast<double>(n), sigma_,
                                                     epochs * (n / lot_size_),
                                                     SubsampledGaussianEvent::Sampling::FixedSizeWithoutReplacement,
                                                     SubsampledGaussianEvent::Neighbouring::ReplaceOne),
                             1, "the trial's DP-SGD training"),
                plugin_data::error_rate_event(score_epsilon_)};
    }

    std::string owner_;
    Model model_;
    Optimiser optimiser_;
    double sigma_;
    std::size_t lot_size_;
    double score_epsilon_;
    std::size_t max_epochs_;
    SearchSpace space_;
    plugin_data::SparseRows training_, validation_, test_;
    std::string description_;
};

}  // namespace

void add_trial_parameters(ParameterSchema& schema) {
    // `trial` and `score_epsilon` as every shipped oracle declares them; then what DP-SGD's trial fixes.
    plugin_data::add_trial_mode_parameters(schema);
    schema
        .real("trial_noise_multiplier", {.fallback = 1.0,
                                         .lower = 0.0,
                                         .lower_inclusive = false,
                                         .doc = "trial = private: the noise multiplier σ of every trial's DP-SGD"})
        .integer(
            "trial_lot_size",
            {.fallback = 256, .lower = 1, .unit = "rows", .doc = "trial = private: the lot size m (sampling rate m/n)"})
        .integer("validation_records",
                 {.fallback = 2000,
                  .lower = 1,
                  .unit = "rows",
                  .doc = "trial = private: the last training records, carved out as the private validation part"});
}

bool trial_mode(const ParameterSet& parameters) {
    return plugin_data::oracle_mode(parameters) == plugin_data::OracleMode::PrivateTrial;
}

std::unique_ptr<Objective> make_trial_objective(const ParameterSet& parameters, const std::string& owner) {
    return std::make_unique<DpSgdTrials>(parameters, owner);
}

}  // namespace dpbo::dpsgd
