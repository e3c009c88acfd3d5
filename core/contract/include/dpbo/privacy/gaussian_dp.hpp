#pragma once
// μ-Gaussian differential privacy (Dong, Roth & Su 2022): conversion to (ε, δ) and composition.
#include <string>
#include <vector>

namespace dpbo {

// μ-GDP ⇒ (ε, δ(ε))-DP for every ε ≥ 0 (Dong, Roth & Su 2022, Cor. 2.13):
// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2).
double gdp_delta(double mu, double epsilon);
// The smallest ε (up to the bracketing tolerance) with gdp_delta(μ, ε) ≤ δ; never returns an ε
// whose δ exceeds the target. Throws ValidationError for μ ≤ 0 or δ outside (0, 1).
double gdp_epsilon(double mu, double delta);
// An upper bound on gdp_delta(μ, ε) that stays valid where double precision cancels (tiny μ or δ):
// evaluated with MPFR at as many bits as needed, plus an allowance for every rounding. Calibrations
// and statements check their answer with it, so they never claim a δ they do not achieve. Throws
// ValidationError for μ ≤ 0 or ε < 0.
double gdp_delta_upper_bound(double mu, double epsilon);
// The smallest σ (to 1e-13 relative) at which Gaussian noise on a query of L2 sensitivity Δ is
// (ε, δ)-DP by the analytic Gaussian mechanism (Balle & Wang 2018, Thm 8), checked against
// gdp_delta_upper_bound so the δ claimed is achieved. Throws naming `owner` when no finite σ exists.
double analytic_gaussian_sigma(double epsilon, double delta, double sensitivity, const std::string& owner);
// T-fold composition: sqrt(Σ μ_t²).
double compose_gdp(const std::vector<double>& mus);

}  // namespace dpbo
