#include "audit_claim.hpp"

#include <fmt/format.h>

#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::audit {

AuditClaim audit_claim(const PrivacyStatement& statement, double gdp_delta, const std::string& who) {
    AuditClaim claim;
    claim.headline = statement.headline();
    switch (statement.notion) {
        case PrivacyNotion::PureDP:
            claim.epsilon = statement.epsilon;
            return claim;
        case PrivacyNotion::ApproxDP:
            claim.epsilon = statement.epsilon;
            claim.delta = statement.delta;
            return claim;
        case PrivacyNotion::GaussianDP:
            claim.mu = statement.mu;
            claim.delta = gdp_delta;
            claim.epsilon = gdp_epsilon(statement.mu, gdp_delta);
            return claim;
        case PrivacyNotion::NotPrivate:
            throw ValidationError(fmt::format("{} states '{}': there is no privacy claim to audit ({})", who,
                                              claim.headline, statement.mechanism));
        case PrivacyNotion::Renyi:
            // An RDP curve claims an (ε, δ) at every δ; the audit tests the one the statement reports
            // (the tight conversion at the run's δ), which the curve must honour like any other.
            if (statement.equivalent_epsilon_delta.empty()) break;
            claim.epsilon = statement.equivalent_epsilon_delta.front().first;
            claim.delta = statement.equivalent_epsilon_delta.front().second;
            return claim;
    }
    throw ValidationError(fmt::format(
        "{} states '{}' ({}); the audit tests ε-DP, (ε, δ)-DP and μ-GDP claims, and RDP curves through their (ε, δ) equivalent",
        who, claim.headline, to_string(statement.notion)));
}

bool refutes(const AuditClaim& claim, double epsilon_lower_bound, double mu_lower_bound) {
    return epsilon_lower_bound > claim.epsilon || (claim.mu && mu_lower_bound > *claim.mu);
}

}  // namespace dpbo::audit
