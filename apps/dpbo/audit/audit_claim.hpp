#pragma once
// The claim an audit tries to refute, at the δ it is tested at: a pure ε-DP claim at δ = 0, an
// (ε, δ)-DP claim at its own δ, a μ-GDP claim as μ itself and as its ε at the audit's δ
// (Dong, Roth & Su 2022, Cor. 2.13). Other statements cannot be audited: "not private" claims
// nothing, and RDP curves are outside what this audit computes.
#include <optional>
#include <string>

#include "dpbo/privacy_statement.hpp"

namespace dpbo::audit {

struct AuditClaim {
    std::string headline;  // "1-GDP", "(1, 1e-05)-DP", "1-DP"
    double epsilon = 0.0;  // at `delta`
    double delta = 0.0;
    std::optional<double> mu;  // GDP claims
};

// `gdp_delta` is the δ a μ-GDP claim is converted at (--delta). Throws ValidationError naming
// `who` for statements that claim nothing or that this audit cannot test.
AuditClaim audit_claim(const PrivacyStatement& statement, double gdp_delta, const std::string& who);

// True when the bounds exceed the claim: ε above the claimed ε at its δ, or μ above the claimed μ.
bool refutes(const AuditClaim& claim, double epsilon_lower_bound, double mu_lower_bound);

}  // namespace dpbo::audit
