#pragma once
// From an event's counts in the two worlds to lower bounds on the privacy parameters. If a
// mechanism M is (ε, δ)-DP, every event E satisfies P[M(D) ∈ E] ≤ e^ε P[M(D′) ∈ E] + δ, so
//   ε ≥ log((p − δ) / q);
// if it is μ-GDP, its trade-off function is at least that of N(0, 1) against N(μ, 1), so
//   μ ≥ Φ⁻¹(p) − Φ⁻¹(q)
// (Dong, Roth & Su 2022, Def. 2.6). Replacing p by a Clopper–Pearson lower bound and q by an upper
// bound, each at level alpha, makes both statements hold with probability ≥ 1 − 2·alpha
// (Jagielski et al. 2020; Nasr et al. 2021).
#include <cstddef>

namespace dpbo::audit {

struct EventCounts {
    std::size_t in_p = 0, trials_p = 0;  // the world whose probability is bounded below
    std::size_t in_q = 0, trials_q = 0;  // the world whose probability is bounded above
};

struct PrivacyLowerBound {
    double p_lower = 0.0;
    double q_upper = 1.0;
    double epsilon = 0.0;  // 0 when p_lower ≤ delta
    double mu = 0.0;       // 0 when Φ⁻¹(p_lower) ≤ Φ⁻¹(q_upper)
};

// Each of the two one-sided bounds at level alpha.
PrivacyLowerBound privacy_lower_bound(const EventCounts& counts, double delta, double alpha);

// What a perfect distinguisher (all of one world, none of the other) could show with `trials`
// samples per world: the largest ε and μ such an audit can ever report.
PrivacyLowerBound largest_detectable(std::size_t trials, double delta, double alpha);

}  // namespace dpbo::audit
