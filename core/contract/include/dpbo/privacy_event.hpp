#pragma once
// What one release costs, as a typed value: the mechanism that made it and the parameters its
// guarantee depends on. Mechanisms report one event per release, accountants compose them, and the
// run's privacy ledger keeps them. Each alternative checks itself, so an accountant never composes
// a meaningless number (a NaN σ, a δ of 1, a sampling rate of 0).
#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace dpbo {

// The norm in which a query's sensitivity is stated.
enum class SensitivityNorm { L1, L2, LInf };
std::string_view to_string(SensitivityNorm norm);
// The sensitivity, in `norm`, of k values that each move by at most `per_value` between neighbouring
// datasets: Δk (L1), Δ√k (L2), Δ (L∞).
double vector_sensitivity(SensitivityNorm norm, double per_value, std::size_t k);

// Gaussian noise of standard deviation σ on a query of L2 sensitivity Δ: (Δ/σ)-GDP.
struct GaussianEvent {
    double sigma = 0.0;
    double sensitivity = 0.0;  // L2
};

// A release stated directly as μ-GDP (a mechanism calibrated to μ).
struct GdpEvent {
    double mu = 0.0;
};

// Laplace noise of scale b on a query of L1 sensitivity Δ₁: (Δ₁/b)-DP.
struct LaplaceEvent {
    double scale = 0.0;
    double sensitivity = 0.0;  // L1
};

// The exponential mechanism choosing one candidate with probability ∝ exp(ε·q/(2Δq)): ε-DP.
struct ExponentialEvent {
    double epsilon = 0.0;
    double quality_sensitivity = 0.0;
};

// `steps` Gaussian releases (noise multiplier σ, i.e. noise σ·Δ) on subsamples drawn at rate q.
struct SubsampledGaussianEvent {
    enum class Sampling { Poisson, FixedSizeWithoutReplacement };
    enum class Neighbouring { AddRemoveOne, ReplaceOne };
    double sampling_rate = 0.0;
    double noise_multiplier = 0.0;
    std::size_t steps = 1;
    Sampling sampling = Sampling::Poisson;
    Neighbouring neighbouring = Neighbouring::AddRemoveOne;
};

// A mechanism its author states to be ε-DP.
struct PureDpEvent {
    double epsilon = 0.0;
};

// A mechanism its author states to be (ε, δ)-DP. ε = 0 with δ > 0 is the cost of a sensitivity bound
// that holds only with probability 1 − δ (Kusner et al. 2015, Theorems 1, 3, 5): charged beside the
// pure ε-DP release calibrated to that bound, basic composition makes the pair (ε, δ)-DP.
struct ApproxDpEvent {
    double epsilon = 0.0;
    double delta = 0.0;
};

enum class PrivacyEventKind { Gaussian, Gdp, Laplace, Exponential, SubsampledGaussian, PureDp, ApproxDp };
// gaussian, gdp, laplace, exponential, subsampled-gaussian, pure, approx: the names `dpbo account`
// reads and every refusal prints.
std::string_view to_string(PrivacyEventKind kind);
std::vector<PrivacyEventKind> all_privacy_event_kinds();

std::string_view to_string(SubsampledGaussianEvent::Sampling sampling);
std::string_view to_string(SubsampledGaussianEvent::Neighbouring neighbouring);

struct PrivacyEvent {
    using Mechanism = std::variant<GaussianEvent, GdpEvent, LaplaceEvent, ExponentialEvent, SubsampledGaussianEvent,
                                   PureDpEvent, ApproxDpEvent>;
    Mechanism mechanism;
    std::size_t repetitions = 1;  // the same release made this many times
    std::string what;             // one line: "gradient at step 3"

    PrivacyEventKind kind() const;
    // Throws ValidationError naming the kind, the field and its value when a parameter is not
    // finite, not positive, or out of range (δ in [0, 1), q in (0, 1], repetitions ≥ 1, ...).
    void validate() const;
    // "gaussian (sigma = 2, L2 sensitivity = 1) x 3: gradient at step 3".
    std::string describe() const;
};

}  // namespace dpbo
