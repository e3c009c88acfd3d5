// DPareto's MNIST privacy–utility oracle (Avent et al. 2020, §5): the paper's MLP2 — two ReLU hidden
// layers of 128 and 64 units and a softmax output over the 10 digits — trained by DP-SGD (Algorithm
// 3 with per-example clipping of the whole parameter vector's gradient; the paper's MNIST runs) or
// DP-Adam (Algorithm 4). Two outputs, both minimised: ε at the objective's δ (paper: 1e-5) from the
// RDP accountant of the subsampled Gaussian with fixed-size lots drawn without replacement (Wang,
// Balle & Kasiviswanathan 2019, replace-one neighbours), and the test error averaged over R
// trainings (paper: 10). Hyperparameters, Table 1's MNIST domain: epochs T ∈ [1, 400] — cut here to
// [1, max_epochs], see the README — and lot size m ∈ [16, 4000] (integers), learning rate
// η ∈ [1e-3, 0.5] (log scale), noise variance σ² ∈ [0.1, 16], clipping norm L ∈ [0.1, 12].
//
// Data: MNIST's 10 000 test images split into training and test images (mnist_split.hpp); the
// paper trained on the 60 000 training images, which are not available here.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

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

namespace {

constexpr const char* kOwner = "objective 'mlp'";
constexpr std::int64_t kLargestLot = 4000;  // Table 1's MNIST lot sizes: [16, 4000]

class MlpOracle final : public dpbo::Objective, public dpbo::SensitiveData {
public:
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
                            .doc = "δ at which ε is reported (paper: 1e-5)"});
        dpbo::mlp::add_mnist_split_parameters(schema, kLargestLot);
        dpbo::plugin_data::add_repetition_parameters(schema, 10);
        return schema;
    }

    explicit MlpOracle(const dpbo::ParameterSet& parameters)
        : optimiser_(parameters.text("optimiser") == "adam" ? dpbo::mlp::Optimiser::Adam : dpbo::mlp::Optimiser::Sgd),
          repetitions_(static_cast<std::size_t>(parameters.integer("repetitions"))),
          epsilon_(parameters.real("delta")),
          seed_(static_cast<std::uint64_t>(parameters.integer("seed"))),
          threads_(static_cast<std::size_t>(parameters.integer("threads"))),
          space_(dpbo::SearchSpace::box(
              {{.name = "epochs",
                .lower = 1,
                .upper = static_cast<double>(parameters.integer("max_epochs")),
                .integer = true},
               {.name = "lot_size", .lower = 16, .upper = static_cast<double>(kLargestLot), .integer = true},
               {.name = "learning_rate", .lower = 1e-3, .upper = 0.5, .scale = dpbo::Scale::Log},
               {.name = "noise_variance", .lower = 0.1, .upper = 16},
               {.name = "clipping_norm", .lower = 0.1, .upper = 12}})),
          split_(dpbo::mlp::load_mnist_split(parameters, kOwner)),
          architecture_({split_.training_images.n_rows, 128, 64, dpbo::mlp::kMnistClasses}) {
        description_ = fmt::format("MLP 784-128-64-10 (ReLU) by {}: {}",
                                   optimiser_ == dpbo::mlp::Optimiser::Adam ? "DP-Adam" : "DP-SGD", split_.description);
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override { return dpbo::plugin_data::privacy_utility_outputs(); }
    std::vector<dpbo::AuxiliaryOutput> auxiliary_outputs() const override {
        return dpbo::plugin_data::repetition_auxiliary_outputs("test accuracy");
    }
    std::string data_description() const override { return description_; }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        return dpbo::plugin_data::evaluate_lot_oracle(
            points, training_images(), kOwner, epsilon_,
            [&](const dpbo::plugin_data::LotHyperparameters& h) { return repetition_accuracies(settings_from(h)); });
    }

private:
    std::size_t training_images() const { return split_.training_images.n_cols; }

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
    dpbo::SearchSpace space_;
    dpbo::mlp::MnistSplit split_;
    dpbo::mlp::Architecture architecture_;
    std::string description_;
};

}  // namespace

DPBO_PLUGIN(MlpOracle, "mlp", "1.0.0",
            "privacy-utility oracle of the paper's MLP2 (784-128-64-10, ReLU, softmax cross-entropy) on MNIST trained "
            "by DP-SGD or DP-Adam with fixed-size lots and per-example clipping: outputs epsilon (RDP accountant, "
            "sampling without replacement, replace-one, delta = 1e-5, tight conversion) and the test error averaged "
            "over R trainings on a seeded split of MNIST's 10 000 test images; Table 1's domain with the epochs cut "
            "(max_epochs); the network computes in single precision and its noise is drawn by a statistical sampler, "
            "since it measures utility only (no model is released)",
            "Avent et al. (2020), Algorithms 3-4, Tables 1 and 3; Abadi et al. (2016); Wang, Balle & "
            "Kasiviswanathan (2019), Thm. 9; He et al. (2015)")
