#pragma once
// What the DP oracles mlp, bolt-on-logreg and svt share in trial mode (`trial = private`, a trial of
// a private tuning): each evaluation is then one private learner over the oracle's private rows (dpbo::PrivateTrials),
// whose value is its error on a validation part carved out of those rows, released through the
// Laplace mechanism of the secure layer, and whose events (the learner's, then the score's) are
// declared with the point. The default, `trial = dpareto`, keeps DPareto's two outputs (ε, error).
#include <cstddef>
#include <string>
#include <vector>

#include "dpbo/evaluation.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/privacy_event.hpp"
#include "libsvm_reader.hpp"

namespace dpbo {
class PrivacyNoiseSource;
}

namespace dpbo::plugin_data {

enum class OracleMode { Dpareto, PrivateTrial };

// `trial` (dpareto | private; default dpareto) and `score_epsilon` (ε of the score's release).
void add_trial_mode_parameters(ParameterSchema& schema);
OracleMode oracle_mode(const ParameterSet& parameters);

// Throws ValidationError naming `owner`, the key and the mode when the user gave a key that means
// nothing in `mode` (a DPareto-only key in trial mode, or a trial-only key in DPareto mode): such a
// key would otherwise be ignored in silence.
void refuse_keys_of_other_mode(const ParameterSet& parameters, OracleMode mode,
                               const std::vector<std::string>& dpareto_only_keys,
                               const std::vector<std::string>& trial_only_keys, const std::string& owner);

// The one output of trial mode: the privatised validation error, minimised.
std::vector<Output> trial_score_outputs();
// The auxiliary output of trial mode: `what` (e.g. "the error on the 2000 test images"), evaluation only.
AuxiliaryOutput trial_evaluation_output(const std::string& name, const std::string& what);

// An error rate over `rows` validation rows released by the Laplace mechanism: under replace-one
// neighbours one row moves the rate by at most 1/rows, so noise of scale 1/(rows·ε) makes the
// release ε-DP (LaplaceEvent(scale, 1/rows)).
class ErrorScoreRelease {
public:
    // Throws ValidationError naming `owner` for no rows or an ε that is not finite and > 0.
    ErrorScoreRelease(std::size_t rows, double epsilon, const std::string& owner);
    std::size_t rows() const { return rows_; }
    double epsilon() const { return epsilon_; }
    double sensitivity() const { return 1.0 / static_cast<double>(rows_); }
    double scale() const { return sensitivity() / epsilon_; }
    PrivacyEvent event() const;
    // error + Laplace(scale()), drawn by the secure layer from `noise`.
    double release(double error, PrivacyNoiseSource& noise) const;

private:
    std::size_t rows_;
    double epsilon_;
};

// The request's trial noise; RunError naming `owner` when the host supplied none (a PrivateTrials
// objective must never fall back to a statistical sampler).
PrivacyNoiseSource& require_trial_noise(const EvaluationRequest& request, const std::string& owner);

// The first rows() − count rows and the last `count` rows of `rows`, in order: a carve that looks
// at positions only, never at the rows' values.
struct CarvedRows {
    SparseRows training;
    SparseRows validation;
};
CarvedRows carve_last_rows(const SparseRows& rows, std::size_t count);

}  // namespace dpbo::plugin_data
