#include "trial_score.hpp"

#include "dpbo/privacy/secure_sampling.hpp"

namespace dpbo::plugin_data {

double release_error_rate(std::size_t errors, std::size_t rows, double epsilon, PrivacyNoiseSource& noise) {
    return privacy::laplace_release(static_cast<double>(errors), 1.0 / epsilon, noise) / static_cast<double>(rows);
}

PrivacyEvent error_rate_event(double epsilon) {
    return PrivacyEvent(LaplaceEvent{1.0 / epsilon, 1.0}, 1, "the trial's validation error");
}

}  // namespace dpbo::plugin_data
