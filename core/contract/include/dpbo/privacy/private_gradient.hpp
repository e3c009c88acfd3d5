#pragma once
// The private half shared by DP-GIBO and DP-GD: per-record gradients are clipped to norm B and
// averaged, and each of the T averages is released through a Gaussian mechanism at μ/√T-GDP.
// Replacing one record moves the clipped average by at most 2B/n (one clipped term leaves, another
// enters, each of norm ≤ B), so σ = (2B/n)/(μ/√T) = 2B√T/(nμ), and T such releases compose to
// μ-GDP (Dong, Roth & Su 2022, Cor. 3.3) — whatever the data, even when B is smaller than the true
// gradients (clipping, not an assumption, bounds the sensitivity).
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class Mechanism;
class PrivacyNoiseSource;
struct RunContext;

struct ClippedAverage {
    arma::vec mean;             // (1/n) Σ_i g_i · min{1, B/‖g_i‖}
    std::size_t clipped = 0;    // records whose gradient norm exceeded B
    double largest_norm = 0.0;  // before clipping: for judging B (not private)
};

// `record_gradients` is d × n, one column per record. Throws RunError naming `owner` for an empty
// matrix or a non-finite entry (the record's column is named).
ClippedAverage clip_and_average(const arma::mat& record_gradients, double bound, const std::string& owner);

struct PrivateGradientSettings {
    double mu = 1.0;                 // total μ-GDP of the whole path
    std::size_t steps = 1;           // T releases
    double clipping_bound = 1.0;     // B
    std::size_t records = 1;         // n
    std::size_t dimension = 1;       // d, the released vector's length
    double equivalent_delta = 1e-5;  // δ at which the (ε, δ) equivalent is reported
    std::string mechanism = "gaussian";
};

// Builds and validates the per-step mechanism before the first release, so a run never starts with
// a privacy setting it cannot honour, and states the run's privacy scope (replace one record) on
// the context's ledger. Each release is charged to that ledger, which composes them.
class PrivateGradientRelease {
public:
    PrivateGradientRelease(RunContext& context, const std::string& owner, const PrivateGradientSettings& settings);
    ~PrivateGradientRelease();

    double per_step_mu() const;
    double sensitivity() const;  // 2B/n
    // 2B/n · (1 + allowance): what the mechanism is calibrated to, covering the floating-point error
    // of computing the clipped average (see floating_point_allowance()).
    double calibrated_sensitivity() const;
    double noise_stddev() const;  // per coordinate: 2B√T/(nμ), times the same (1 + allowance)
    std::size_t releases() const { return releases_; }

    // clipped average + N(0, noise_stddev² I), charged to the ledger as "gradient at step t" before
    // the noise is drawn; throws RunError after T releases (a further one would exceed μ), and what
    // the ledger throws (BudgetExceeded) when the run's budget refuses it.
    arma::vec release(const arma::vec& clipped_average);

    // The words of the whole path's statement (what was released, how, on what assumptions); the
    // numbers are the ledger's composition of the releases made (T when the run completed, fewer if
    // it stopped early). Not private when nothing was released.
    PrivacyStatement statement(std::vector<std::string> released, std::vector<std::string> assumptions) const;

private:
    RunContext& context_;
    std::string owner_;
    PrivateGradientSettings settings_;
    std::shared_ptr<Mechanism> mechanism_;
    std::size_t releases_ = 0;
};

}  // namespace dpbo
