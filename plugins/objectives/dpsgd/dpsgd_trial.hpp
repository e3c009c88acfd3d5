#pragma once
// The dpsgd objective in trial mode (trial = private): every evaluation is a private learner, a trial
// of a tuning. It trains logistic regression or a linear SVM on the training part of the private a9a
// rows by DP-SGD or DP-Adam with fixed-size lots drawn without replacement, its lots and noise from
// the secure layer (EvaluationRequest::trial_noise), then releases its error on the validation part
// of the private rows (the last `validation_records` training rows, carved out before training)
// through the Laplace mechanism. It declares both events per point (subsampled Gaussian, without
// replacement, replace-one, q = m/n, σ, T⌊n/m⌋ steps; laplace with scale 1/score_epsilon). The noise
// multiplier σ and the lot size m are parameters; the search tunes epochs, learning rate and
// clipping norm. Its auxiliary output, the error on the public test rows (a9a.t), is post-processing
// of the privately trained model: covered by the subsampled-Gaussian event.
#include <memory>

#include "dpbo/objective.hpp"
#include "dpbo/parameters.hpp"

namespace dpbo::dpsgd {

// Adds trial mode's parameters (trial, trial_noise_multiplier, trial_lot_size, score_epsilon,
// validation_records) to the dpsgd schema.
void add_trial_parameters(ParameterSchema& schema);
bool trial_mode(const ParameterSet& parameters);
// The trial-mode objective; ValidationError naming the parameter when the validation part leaves
// fewer training rows than one lot.
std::unique_ptr<Objective> make_trial_objective(const ParameterSet& parameters, const std::string& owner);

}  // namespace dpbo::dpsgd
