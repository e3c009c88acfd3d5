#include "dpbo/evaluation.hpp"

#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"
#include "evaluation_trials.hpp"
#include "memory_bound.hpp"
#include "dpbo/evaluation_contract.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/run_journal.hpp"

namespace dpbo {

// The largest noise_stddev: the experiment generator's standard normal draws (the polar method on
// 53-bit uniforms) are below 12.1 in magnitude, so noise of at most 1e300 × 12.1 stays far inside the
// double range; 1e308 overflowed observations to ±inf, which then read as the best value found.
constexpr double kLargestNoiseStddev = 1e300;

void add_noise_parameter(ParameterSchema& schema, const std::string& note) {
    schema.real("noise_stddev",
                {.fallback = 0.0,
                 .lower = 0.0,
                 .upper = kLargestNoiseStddev,
                 .doc = "standard deviation of Gaussian noise added to each observed value (0: exact values; at "
                        "most 1e300, so that the noise stays finite" +
                        (note.empty() ? std::string() : "; " + note) + ")"});
}

void add_synthetic_record_parameters(ParameterSchema& schema) {
    schema
        .real("bound", {.fallback = 5.0,
                        .lower = 0.0,
                        .upper = 1e150,
                        .lower_inclusive = false,
                        .doc = "the search box is [−bound, bound]^d (its centre 0 is the paper's θ⁽⁰⁾); at most 1e150, "
                               "so that squared distances in the box stay finite"})
        .integer("data_seed", {.fallback = 0,
                               .lower = 0,
                               .doc = "seed of the records' own generator (the records are data, not run randomness)"});
    add_noise_parameter(schema, "added to the mean values only, never to the per-record losses");
}

SyntheticRecordSettings synthetic_record_settings(const ParameterSet& parameters) {
    SyntheticRecordSettings settings;
    settings.dim = static_cast<std::size_t>(parameters.integer("dim"));
    settings.records = static_cast<std::size_t>(parameters.integer("records"));
    settings.bound = parameters.real("bound");
    settings.data_seed = static_cast<std::uint64_t>(parameters.integer("data_seed"));
    settings.noise_stddev = parameters.real("noise_stddev");
    // The records are a records × dim matrix, held with a few working copies (centred data,
    // per-record gradients) while evaluating; the search space adds its coordinates.
    const double dim = static_cast<double>(settings.dim), records = static_cast<double>(settings.records);
    memory::require(parameters.owner(), fmt::format("records = {} with dim = {}", settings.records, settings.dim),
                    3.0 * records * dim * sizeof(double) + 96.0 * dim,
                    "the records and two working copies of them, 8 bytes per coordinate each");
    return settings;
}

void add_observation_noise(arma::mat& values, double stddev, const EvaluationRequest& request,
                           const std::string& owner) {
    if (stddev <= 0.0 || request.exact) return;
    if (request.rng == nullptr)
        throw RunError(
            fmt::format("{}: noise_stddev = {} needs an experiment random source, but the evaluation "
                        "request carries none",
                        owner, stddev));
    const arma::mat exact = values;
    values += stddev * request.rng->normal(values.n_rows, values.n_cols);
    // The exact values were checked finite (the evaluation contract); an observation made non-finite
    // by its noise (a noise_stddev near the double range, or a value near it) would be compared,
    // released and judged as if it were a number — −inf became the best value with regret 0.
    const arma::uvec bad = arma::find_nonfinite(values);
    if (!bad.is_empty()) {
        const arma::uword i = bad(0) % values.n_rows, j = bad(0) / values.n_rows;
        throw RunError(
            fmt::format("{}: observation noise of noise_stddev = {} (the objective's observation noise) made "
                        "output {} at point {} non-finite ({} + noise = {}); allowed: a noise_stddev for "
                        "which value + noise stays within the double range",
                        owner, stddev, j, i, exact(i, j), values(i, j)));
    }
}

Evaluator::~Evaluator() = default;

Evaluations Evaluator::evaluate(Objective& objective, const arma::mat& points, const EvaluationRequest& request) {
    const std::string who = objective.describe_origin();
    const auto [record_count, noise_stddev] = call_into_module(who, "describing itself", [&] {
        objective.space().check_contains(points, "evaluation request");
        return std::pair{dpbo::record_count(objective), dpbo::observation_noise_stddev(objective)};
    });
    if (request.per_record && record_count == 0)
        throw ValidationError(fmt::format("{} is not record-decomposable: it cannot return per-record values", who));
    const bool private_trials = capability<PrivateTrials>(objective) != nullptr;
    if (private_trials && request.per_record)
        throw ValidationError(
            fmt::format("{} runs trials that are private learners (PrivateTrials): their per-record losses are not "
                        "privatised and cannot be asked for",
                        who));
    if (private_trials && trial_ledger_ == nullptr)
        throw RunError(
            fmt::format("{} runs trials that are private learners (PrivateTrials), but the evaluator has no ledger "
                        "to charge them to (Evaluator::attach_trial_ledger)",
                        who));
    const std::size_t batch = batches_++;
    std::optional<Evaluations> recorded;
    if (journal_ != nullptr) recorded = journal_->recorded_batch(batch, points, request);
    Evaluations result;
    if (recorded) {
        result = std::move(*recorded);
    } else {
        EvaluationRequest own = request;
        std::optional<ExperimentRng> batch_rng;
        if (request.rng != nullptr) {
            batch_rng.emplace(sub_seed(request.rng->seed(), batch));
            own.rng = &*batch_rng;
        }
        // A trial's privacy noise is numbered by its batch as the experiment generator is, so a
        // resumed run draws what the uninterrupted run drew; any other objective gets none.
        std::optional<PrivacyNoiseSource> batch_trial_noise;
        own.trial_noise = nullptr;
        if (private_trials) {
            batch_trial_noise.emplace(trial_ledger_->trial_noise(batch));
            own.trial_noise = &*batch_trial_noise;
        }
        result = call_into_module(who, "evaluating points", [&] { return evaluate_batch(objective, points, own); });
    }
    // The contract holds for the exact values; the noise of an observation comes after, on the
    // values only, so per-record losses stay the records' exact contributions.
    check_evaluation_contract(objective, points, request, result);
    // Charged before the batch is journaled or handed back: a trial the budget refuses releases
    // nothing, and a replayed batch is charged again as the uninterrupted run charged it.
    if (private_trials) charge_trials({*trial_ledger_, trial_cover_, batch, count_}, objective, points, result);
    if (journal_ != nullptr && !recorded) journal_->record_batch(batch, result, request);
    add_observation_noise(result.values, noise_stddev, request, who);
    count_ += result.size();
    return result;
}

Evaluations SerialEvaluator::evaluate_batch(Objective& objective, const arma::mat& points,
                                            const EvaluationRequest& request) {
    return objective.evaluate(points, request);
}

}  // namespace dpbo
