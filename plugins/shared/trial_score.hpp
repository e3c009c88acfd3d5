#pragma once
// What the shipped oracles share in trial mode (PrivateTrials: each evaluation a private learner):
// the trial's score released through the Laplace mechanism of the secure layer. The score is an
// error rate over a validation part of the private rows, released as its count of errors (one row
// replaced, added or removed moves it by at most 1) plus Laplace noise of scale 1/ε, divided by the
// validation part's size (public).
#include <cstddef>

#include "dpbo/privacy_event.hpp"
#include "dpbo/random.hpp"

namespace dpbo::plugin_data {

// The privatised error rate of `errors` misclassified rows among `rows` validation rows.
double release_error_rate(std::size_t errors, std::size_t rows, double epsilon, PrivacyNoiseSource& noise);
// The event of that release: laplace with scale 1/ε and sensitivity 1.
PrivacyEvent error_rate_event(double epsilon);

}  // namespace dpbo::plugin_data
