#include "dpbo/evaluation.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

void Evaluations::check(const std::string& producer, std::size_t dim) const {
    const std::size_t b = points.n_rows;
    const auto refuse = [&](const std::string& why) { return RunError(fmt::format("{}: {}", producer, why)); };
    if (points.n_cols != dim) throw refuse(fmt::format("returned points with {} columns, expected {}", points.n_cols, dim));
    if (values.n_elem != b) throw refuse(fmt::format("returned {} values for {} points", values.n_elem, b));
    for (std::size_t i = 0; i < b; ++i)
        if (!std::isfinite(values(i))) {
            const arma::rowvec point = points.row(i);
            throw refuse(fmt::format("value at point {} ({}) is {}", i, fmt::join(point, ", "), values(i)));
        }
    if (!per_record.is_empty()) {
        if (per_record.n_rows != b)
            throw refuse(fmt::format("returned per-record values of {} rows for {} points", per_record.n_rows, b));
        if (!per_record.is_finite()) throw refuse("per-record values contain NaN or infinite entries");
    }
    for (const auto& [name, output] : outputs)
        if (output.n_elem != b) throw refuse(fmt::format("output '{}' has {} entries for {} points", name, output.n_elem, b));
    if (!candidate_rows.is_empty() && candidate_rows.n_elem != b)
        throw refuse(fmt::format("returned {} candidate rows for {} points", candidate_rows.n_elem, b));
}

void add_noise_parameter(ParameterSchema& schema, const std::string& note) {
    schema.real("noise_stddev",
                {.fallback = 0.0,
                 .lower = 0.0,
                 .doc = "standard deviation of Gaussian noise added to each observed value (0: exact values" +
                        (note.empty() ? std::string() : "; " + note) + ")"});
}

void add_synthetic_record_parameters(ParameterSchema& schema) {
    schema
        .real("bound", {.fallback = 5.0,
                        .lower = 0.0,
                        .lower_inclusive = false,
                        .doc = "the search box is [−bound, bound]^d (its centre 0 is the paper's θ⁽⁰⁾)"})
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
    return settings;
}

void add_observation_noise(arma::vec& values, double stddev, const EvaluationRequest& request,
                           const std::string& owner) {
    if (stddev <= 0.0) return;
    if (request.rng == nullptr)
        throw RunError(fmt::format("{}: noise_stddev = {} needs an experiment random source, but the evaluation "
                                   "request carries none",
                                   owner, stddev));
    values += stddev * request.rng->normal(values.n_elem, 1);
}

Evaluator::~Evaluator() = default;

Evaluations Evaluator::evaluate(Objective& objective, const arma::mat& points, const EvaluationRequest& request) {
    objective.space().check_contains(points, "evaluation request");
    if (request.per_record && objective.record_count() == 0)
        throw ValidationError("this objective is not record-decomposable: it cannot return per-record values");
    Evaluations result = evaluate_batch(objective, points, request);
    result.check("objective", objective.space().dim());
    if (request.per_record && result.per_record.n_cols != objective.record_count())
        throw RunError(fmt::format("objective: returned {} per-record columns, it declares {} records",
                                   result.per_record.n_cols, objective.record_count()));
    count_ += result.size();
    return result;
}

Evaluations SerialEvaluator::evaluate_batch(Objective& objective, const arma::mat& points,
                                            const EvaluationRequest& request) {
    return objective.evaluate(points, request);
}

}  // namespace dpbo
