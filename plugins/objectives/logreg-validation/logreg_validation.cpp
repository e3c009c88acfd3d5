// Hyperparameter tuning of L2-regularised logistic regression on UCI Adult (LIBSVM a9a), the
// application of Kusner, Gardner, Garnett & Weinberger 2015 (Differentially Private Bayesian
// Optimization, §5): the model w_λ is trained on the public training split (a9a) and the tuned
// quantity is its validation gain on the sensitive split (a9a.t), one record per validation row:
//   f_V(λ) = (1/m) Σ_i gain(w_λ, x_i, y_i),   λ ∈ [lambda_min, lambda_max] on a log scale.
// Every row is scaled by the public bound 1/√14 (an a9a row has at most 14 ones), so ‖x‖ ≤ 1 and
// the training loss log(1 + exp(−y w·x)) is 1-Lipschitz in w (Kusner et al., §5). With the ramp or
// sigmoid gain the objective declares Assumption 2's constants — L, g*, m, λ_min, λ_max — for
// dp-ucb's lipschitz variant (Algorithm 3); with accuracy (Algorithm 1) it declares no L, which a
// 0/1 gain does not have.
//
// The neighbour switch replaces validation record i by its features with label neighbour_value
// (0, the default: its own label flipped — every gain of that record then moves as far as the gain
// allows). The training rows, public, stay as shipped.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/neighbour.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "libsvm_reader.hpp"
#include "logistic_training.hpp"
#include "adult_split.hpp"
#include "validation_gain.hpp"

namespace {

// The a9a splits shipped with the plugin (plugins/objectives/logreg-validation/data, its README the
// attribution), in share/dpbo/data.
constexpr const char* kTrainingFile = "a9a.gz";
constexpr const char* kValidationFile = "a9a.t.gz";

using namespace dpbo::logreg_validation;
using dpbo::plugin_data::read_libsvm;
using dpbo::plugin_data::SparseRows;

constexpr const char* kOwner = "objective 'logreg-validation'";
constexpr std::size_t kFeatures = 123;  // a9a's dimension (the test split never uses feature 123)
// The public norm bound: an a9a row is binary with at most 14 ones, so ‖x‖² ≤ 14 before scaling.
constexpr double kSquaredNormBound = 14.0;
// Defaults: 10000 of a9a's 32561 training rows train a model in about 20 ms (Newton on sparse rows;
// a 50-evaluation run takes about a second), and all 16281 validation rows of a9a.t keep the
// sensitivity g*/m of the mean gain small (6.1e-5).
constexpr std::int64_t kDefaultTrainingRecords = 10000;
constexpr std::int64_t kDefaultValidationRecords = 16281;
// λ ∈ [1e-4, 1]: with the defaults above, validation accuracy is 0.850 at λ ≤ 3e-4 (best of the
// reference grid at λ = 1.5e-4), 0.799 at 1e-2 and the majority-class rate 0.764 from λ = 1 on, so
// the range brackets the optimum and the regime where regularisation wins. Algorithm 3's noise term
// (λ_max − λ_min)L/(ε λ_max λ_min) grows like 1/λ_min: a private run may raise lambda_min.
constexpr double kDefaultLambdaMin = 1e-4;
constexpr double kDefaultLambdaMax = 1.0;
// The evaluation-only reference: the best gain over this many λ, equally spaced in log λ.
constexpr int kReferenceGridPoints = 61;
// At most this many λ are remembered (each holds m gains: 130 kB at m = 16281).
constexpr std::size_t kMemoEntries = 512;

class LogregValidation final : public dpbo::Objective,
                               public dpbo::RecordDecomposable,
                               public dpbo::SensitiveData,
                               public dpbo::DeclaredConstants {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema
            .choice("gain", {"accuracy", "ramp", "sigmoid"}, "accuracy",
                    "per-record validation gain: accuracy (1 if y·w·x > 0; Kusner et al. Algorithm 1), ramp "
                    "(−min(1, max(0, 1 − y·w·x)), L = 1) or sigmoid (−1/(1 + exp(y·w·x)), L = 1/4) for Algorithm 3; "
                    "|gain| ≤ g* = 1 for all three")
            .real("lambda_min", {.fallback = kDefaultLambdaMin,
                                 .lower = 0.0,
                                 .lower_inclusive = false,
                                 .doc = "smallest regularisation λ of the search space (log scale); declared as "
                                        "lambda_min"})
            .real("lambda_max", {.fallback = kDefaultLambdaMax,
                                 .lower = 0.0,
                                 .lower_inclusive = false,
                                 .doc = "largest λ (log scale), above lambda_min; declared as lambda_max"})
            .integer("training_records", {.fallback = kDefaultTrainingRecords,
                                          .lower = 1,
                                          .doc = "the first rows of the training file that train w_λ (public data; "
                                                 "a9a has 32561)"})
            .integer("validation_records", {.fallback = kDefaultValidationRecords,
                                            .lower = 1,
                                            .doc = "m: the first rows of the validation file, one sensitive record "
                                                   "each (a9a.t has 16281)"})
            .text("training_file", std::nullopt,
                  "LIBSVM training data (plain or .gz, 123 features); absent: a9a as shipped with dpbo")
            .text("validation_file", std::nullopt,
                  "LIBSVM validation data (plain or .gz, 123 features); absent: a9a.t as shipped with dpbo");
        dpbo::add_neighbour_parameters(
            schema, 0.0,
            "the label of the record that replaces validation record neighbour_record, at the same features: 0 "
            "(default) flips that record's label, so its gain moves as far as the gain allows; +1 or -1 sets it");
        return schema;
    }

    explicit LogregValidation(const dpbo::ParameterSet& parameters)
        : gain_(gain_from_name(parameters.text("gain"))),
          lambda_min_(parameters.real("lambda_min")),
          lambda_max_(parameters.real("lambda_max")),
          training_records_(static_cast<std::size_t>(parameters.integer("training_records"))),
          validation_records_(static_cast<std::size_t>(parameters.integer("validation_records"))),
          neighbour_(dpbo::neighbour_switch(parameters, validation_records_, kOwner)) {
        if (!(lambda_min_ < lambda_max_))
            throw dpbo::ValidationError(
                fmt::format("{}: lambda_min = {} and lambda_max = {} are not allowed; "
                            "lambda_min must be below lambda_max",
                            kOwner, lambda_min_, lambda_max_));
        if (neighbour_.value != 0.0 && neighbour_.value != 1.0 && neighbour_.value != -1.0)
            throw dpbo::ValidationError(
                fmt::format("{}: neighbour_value = {} is not allowed; expected 0 (flip the "
                            "record's label), 1 or -1",
                            kOwner, neighbour_.value));
        space_ = dpbo::SearchSpace::box({{"lambda", lambda_min_, lambda_max_, dpbo::Scale::Log}});
        const std::string training_path =
            dpbo::plugin_data::data_path(parameters, "training_file", kTrainingFile, kOwner);
        const std::string validation_path =
            dpbo::plugin_data::data_path(parameters, "validation_file", kValidationFile, kOwner);
        training_ =
            read_libsvm(training_path, "training_file", training_records_, "training_records", kFeatures, kOwner);
        validation_ = read_libsvm(validation_path, "validation_file", validation_records_, "validation_records",
                                  kFeatures, kOwner);
        dpbo::plugin_data::scale_to_unit_norm(training_, kSquaredNormBound, training_path, kOwner);
        dpbo::plugin_data::scale_to_unit_norm(validation_, kSquaredNormBound, validation_path, kOwner);
        if (neighbour_.active()) {
            double& label = validation_.labels[*neighbour_.record];
            label = neighbour_.value == 0.0 ? -label : neighbour_.value;
        }
        description_ = fmt::format(
            "LIBSVM a9a (UCI Adult, 123 binary features, rows scaled by 1/√14 to norm ≤ 1): w_λ trained on the first "
            "{} rows of {} (public), validated on the first {} rows of {} (the sensitive records, one per row); "
            "gain {}",
            training_records_, parameters.has("training_file") ? training_path : "a9a", validation_records_,
            parameters.has("validation_file") ? validation_path : "a9a.t", parameters.text("gain"));
        description_ += neighbour_.describe(neighbour_.value == 0.0
                                                ? std::string("the same features with the label flipped")
                                                : fmt::format("the same features with label {:+g}", neighbour_.value));
    }

    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Sense sense() const override { return dpbo::Sense::Maximise; }
    std::size_t record_count() const override { return validation_records_; }
    std::string data_description() const override { return description_; }

    std::vector<dpbo::DeclaredConstant> declared_constants() const override {
        std::vector<dpbo::DeclaredConstant> out;
        if (const auto lipschitz = lipschitz_constant(gain_))
            out.push_back({"lipschitz", *lipschitz,
                           gain_ == Gain::Ramp ? "L: the ramp loss is 1-Lipschitz in w for ‖x‖ ≤ 1 (slope 0 or 1 in "
                                                 "the margin)"
                                               : "L: the sigmoid loss 1/(1 + e^{y w·x}) is 1/4-Lipschitz in w for "
                                                 "‖x‖ ≤ 1 (σ′ ≤ 1/4)"});
        out.push_back({"gain_bound", gain_bound(gain_), "g*: every per-record gain lies in [−1, 1]"});
        out.push_back({"validation_records", static_cast<double>(validation_records_),
                       "m: the number of sensitive validation records"});
        out.push_back({"lambda_min", lambda_min_, "the smallest regularisation λ searched (natural scale)"});
        out.push_back({"lambda_max", lambda_max_, "the largest regularisation λ searched (natural scale)"});
        return out;
    }

    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        if (points.n_cols != 1)
            throw dpbo::RunError(
                fmt::format("{}: points have {} columns; the space has 1 (lambda)", kOwner, points.n_cols));
        arma::mat gains(validation_records_, points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) gains.col(i) = record_gains_at(points(i, 0), i);
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::mean(gains, 0).t();
        if (request.per_record) result.per_record = gains.t();
        return result;
    }

    // Evaluation-only: the best mean gain over a fine log grid of λ, and where it is.
    std::vector<dpbo::ReleasedValue> reference_values() const override {
        double best = -HUGE_VAL;
        double best_lambda = lambda_min_;
        for (int k = 0; k < kReferenceGridPoints; ++k) {
            const double lambda = std::exp(std::log(lambda_min_) + (std::log(lambda_max_) - std::log(lambda_min_)) * k /
                                                                       (kReferenceGridPoints - 1));
            const double value = arma::mean(record_gains_at(lambda, 0));
            if (value > best) {
                best = value;
                best_lambda = lambda;
            }
        }
        return {{"best_gain_on_grid",
                 fmt::format("the best validation gain over {} values of λ log-spaced in [lambda_min, lambda_max]",
                             kReferenceGridPoints),
                 arma::mat{best}},
                {"best_lambda_on_grid", "the λ of that grid where the best gain is reached", arma::mat{best_lambda}}};
    }

private:
    // The validation gains of w_λ, memoised by λ: training is deterministic, so f_V(λ) is a function.
    const arma::vec& record_gains_at(double lambda, arma::uword index) const {
        if (!std::isfinite(lambda) || !(lambda > 0.0))
            throw dpbo::ValidationError(
                fmt::format("{}: point {} has lambda = {}; the regularisation needs a finite "
                            "lambda > 0",
                            kOwner, index, lambda));
        const auto found = memo_.find(lambda);
        if (found != memo_.end()) return found->second;
        if (memo_.size() >= kMemoEntries) memo_.clear();  // bounded memory; a cleared λ retrains identically
        const arma::vec w = train_logistic(training_, kFeatures, lambda, kOwner);
        return memo_.emplace(lambda, record_gains(gain_, validation_.labels % margins(validation_, w))).first->second;
    }

    Gain gain_;
    double lambda_min_;
    double lambda_max_;
    std::size_t training_records_;
    std::size_t validation_records_;
    dpbo::NeighbourSwitch neighbour_;
    dpbo::SearchSpace space_;
    SparseRows training_;
    SparseRows validation_;
    std::string description_;
    mutable std::map<double, arma::vec> memo_;
};

}  // namespace

DPBO_PLUGIN(LogregValidation, "logreg-validation", "1.0.0",
            "validation gain (accuracy, ramp or sigmoid) of L2-regularised logistic regression on LIBSVM a9a (UCI "
            "Adult), tuning λ on a log scale; trained on the public split, one record per sensitive validation row; "
            "declares Kusner et al.'s Assumption-2 constants",
            "Kusner, Gardner, Garnett & Weinberger 2015, Differentially Private Bayesian Optimization, §5, "
            "Algorithms 1 and 3, Assumption 2; data: LIBSVM a9a (Platt 1998) from UCI Adult, Becker & Kohavi 1996")
