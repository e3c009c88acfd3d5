#include "trial_oracle.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::plugin_data {

void add_trial_mode_parameters(ParameterSchema& schema) {
    schema
        .choice("trial", {"dpareto", "private"}, "dpareto",
                "dpareto: DPareto's privacy-utility oracle (outputs epsilon and error, the noise for utility only); "
                "private: each evaluation is a private trial (PrivateTrials) whose noise is drawn by the secure "
                "layer and whose one output is its validation error released by the Laplace mechanism")
        .real("score_epsilon", {.fallback = 0.1,
                                .lower = 0.0,
                                .lower_inclusive = false,
                                .doc = "trial mode: ε of the Laplace release of the validation error (sensitivity "
                                       "1/validation rows, replace-one)"});
}

OracleMode oracle_mode(const ParameterSet& parameters) {
    return parameters.text("trial") == "private" ? OracleMode::PrivateTrial : OracleMode::Dpareto;
}

void refuse_keys_of_other_mode(const ParameterSet& parameters, OracleMode mode,
                               const std::vector<std::string>& dpareto_only_keys,
                               const std::vector<std::string>& trial_only_keys, const std::string& owner) {
    const bool trial = mode == OracleMode::PrivateTrial;
    for (const std::string& key : trial ? dpareto_only_keys : trial_only_keys)
        if (parameters.given_by_user(key))
            throw ValidationError(
                fmt::format("{}: '{}' applies only with trial = {}; this configuration has trial = {}", owner, key,
                            trial ? "dpareto" : "private", trial ? "private" : "dpareto"));
}

std::vector<Output> trial_score_outputs() { return {{"private_error", Sense::Minimise}}; }

AuxiliaryOutput trial_evaluation_output(const std::string& name, const std::string& what) {
    return {name, fmt::format("{}, without privacy noise on the figure: for evaluation only — a search that releases "
                              "only its selected trial must not release it for the others",
                              what)};
}

ErrorScoreRelease::ErrorScoreRelease(std::size_t rows, double epsilon, const std::string& owner)
    : rows_(rows), epsilon_(epsilon) {
    if (rows == 0) throw ValidationError(fmt::format("{}: the validation part has no rows", owner));
    if (!(epsilon > 0.0) || !std::isfinite(epsilon))
        throw ValidationError(fmt::format("{}: 'score_epsilon' = {}; expected a finite number > 0", owner, epsilon));
}

PrivacyEvent ErrorScoreRelease::event() const {
    return PrivacyEvent(LaplaceEvent(scale(), sensitivity()), 1,
                        fmt::format("validation error on {} rows (Laplace, epsilon = {})", rows_, epsilon_));
}

double ErrorScoreRelease::release(double error, PrivacyNoiseSource& noise) const {
    return privacy::laplace_release(error, scale(), noise);
}

PrivacyNoiseSource& require_trial_noise(const EvaluationRequest& request, const std::string& owner) {
    if (request.trial_noise == nullptr)
        throw RunError(fmt::format(
            "{}: trial = private needs the host's trial noise (EvaluationRequest::trial_noise) and none was given; "
            "a private trial never falls back to a statistical sampler",
            owner));
    return *request.trial_noise;
}

CarvedRows carve_last_rows(const SparseRows& rows, std::size_t count) {
    const std::size_t kept = rows.rows() - count;
    const auto copy = [&](std::size_t first, std::size_t last) {
        SparseRows part;
        part.starts.assign(1, 0);
        for (std::size_t r = first; r < last; ++r) {
            for (std::size_t k = rows.starts[r]; k < rows.starts[r + 1]; ++k) {
                part.index.push_back(rows.index[k]);
                part.value.push_back(rows.value[k]);
            }
            part.starts.push_back(part.index.size());
        }
        part.labels = rows.labels.subvec(first, last - 1);
        return part;
    };
    return {copy(0, kept), copy(kept, rows.rows())};
}

}  // namespace dpbo::plugin_data
