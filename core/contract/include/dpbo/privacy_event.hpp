#pragma once
// What one release costs, as a typed value. Mechanisms report one event per release, accountants
// compose them, and the run's privacy ledger keeps them.
//
// The set of kinds is open. An event is an EventDescription: it names its kind, checks itself (so
// an accountant never composes a meaningless number: a NaN σ, a δ of 1, a sampling rate of 0),
// describes itself in one line, lists its parameters, and offers the views accountants compose
// generically — a μ-GDP parameter, an (ε, δ) statement, an RDP curve — each only when the event's
// guarantee can be stated that way. An accountant composes an event through a view it uses or
// because it knows the kind by name (the rdp accountant's subsampled Gaussian), and otherwise
// refuses it by name (accountant.hpp). The built-in kinds below live here; a plugin adds a kind by
// defining its own EventDescription and registering it as an "event" module (event_kind.hpp), with
// no change to the host or this library.
#include <concepts>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dpbo/parameters.hpp"
#include "dpbo/privacy/trial_count.hpp"

namespace dpbo {

// The norm in which a query's sensitivity is stated.
enum class SensitivityNorm { L1, L2, LInf };
std::string_view to_string(SensitivityNorm norm);
// The sensitivity, in `norm`, of k values that each move by at most `per_value` between neighbouring
// datasets: Δk (L1), Δ√k (L2), Δ (L∞).
double vector_sensitivity(SensitivityNorm norm, double per_value, std::size_t k);

// A guarantee stated as (ε, δ)-DP; δ = 0 is pure ε-DP.
struct ApproximateDp {
    double epsilon = 0.0;
    double delta = 0.0;
};

// The views an accountant can compose an event of a kind it does not know through. Adding one is a
// change of the contract (a virtual below); a privacy-loss distribution is the expected next.
enum class EventView {
    GaussianDp,     // gdp_mu(): the release is μ-GDP (Dong, Roth & Su 2022)
    ApproximateDp,  // approximate_dp(): the release is (ε, δ)-DP
    Renyi,          // rdp_epsilon(α): the release is (α, ε(α))-RDP for every α > 1 (Mironov 2017)
};
// "a μ-GDP parameter (gdp_mu)", "an (ε, δ)-DP statement (approximate_dp)", "an RDP curve (rdp_epsilon)".
std::string_view to_string(EventView view);
std::vector<EventView> all_event_views();

// One release's guarantee, of some kind. Immutable once built: PrivacyEvent shares it between copies.
//
// For plugin authors: identify your own kind by kind() and read it through parameters() or
// number(), never by dynamic_cast — a class compiled into two plugins is two distinct types.
// The built-in classes below are defined once, in libdpbo, so PrivacyEvent::as<> works for them.
class EventDescription {
public:
    virtual ~EventDescription();

    // The kind's name, lower case with hyphens: what `dpbo account --event KIND:...` reads, what
    // every refusal and description prints, and the name of the "event" module that builds it.
    virtual std::string_view kind() const = 0;
    // Throws ValidationError naming the kind, the parameter and its value when a parameter is not
    // finite, not positive or out of range (EventParameterCheck words it like every other kind).
    virtual void validate() const = 0;
    // The parameters in one line, for describe(): "sigma = 2, L2 sensitivity = 1".
    virtual std::string parameter_text() const = 0;
    // The parameters under the names the kind's schema reads, so that the event can be rebuilt from
    // them (for JSON, journals and tests): {"sigma": 2, "sensitivity": 1}.
    virtual std::map<std::string, ParameterValue> parameters() const = 0;

    // The views, each empty when the event's guarantee cannot be stated that way. The values are for
    // one release of a validated event and are never below the true cost (round up, not to nearest).
    //
    // μ of a μ-GDP guarantee.
    virtual std::optional<double> gdp_mu() const;
    // (ε, δ) of an (ε, δ)-DP guarantee (δ = 0: pure ε-DP).
    virtual std::optional<ApproximateDp> approximate_dp() const;
    // ε(α) of an (α, ε(α))-RDP guarantee at order α > 1; empty for every α or for none (+∞ where the
    // curve is unbounded).
    virtual std::optional<double> rdp_epsilon(double alpha) const;

    bool offers(EventView view) const;
    std::vector<EventView> views() const;
    // A numeric parameter by name (an integer converted): throws ValidationError naming the kind and
    // the key when parameters() has no such number.
    double number(std::string_view name) const;

protected:
    EventDescription() = default;
    EventDescription(const EventDescription&) = default;
    EventDescription& operator=(const EventDescription&) = default;
};

// The words every kind uses to refuse a parameter: "privacy event 'gaussian': 'sigma' = 0; allowed:
// a finite number > 0".
class EventParameterCheck {
public:
    explicit EventParameterCheck(std::string_view kind) : kind_(kind) {}
    void positive(std::string_view name, double value) const;                       // finite, > 0
    void non_negative(std::string_view name, double value) const;                   // finite, >= 0
    void in_unit_interval_right_closed(std::string_view name, double value) const;  // (0, 1]
    void probability_below_one(std::string_view name, double value) const;          // [0, 1)
    void at_least_one(std::string_view name, std::size_t value) const;              // integer >= 1
    [[noreturn]] void refuse(std::string_view name, std::string_view value, std::string_view allowed) const;

private:
    std::string kind_;
};

// The shortest text that reads back as `value` (0.1, not 0.10000000000000001): what the user typed.
std::string event_number(double value);

// Gaussian noise of standard deviation σ on a query of L2 sensitivity Δ: (Δ/σ)-GDP, and
// (α, αΔ²/(2σ²))-RDP (Mironov 2017, Prop. 7).
class GaussianEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "gaussian";
    static ParameterSchema schema();
    explicit GaussianEvent(double sigma_ = 0.0, double sensitivity_ = 0.0) : sigma(sigma_), sensitivity(sensitivity_) {}
    explicit GaussianEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<double> gdp_mu() const override;
    std::optional<double> rdp_epsilon(double alpha) const override;

    double sigma;
    double sensitivity;  // L2
};

// A release stated directly as μ-GDP (a mechanism calibrated to μ); μ-GDP is the Gaussian mechanism
// with Δ/σ = μ (Dong, Roth & Su 2022, Thm. 2.7), so its RDP curve is αμ²/2.
class GdpEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "gdp";
    static ParameterSchema schema();
    explicit GdpEvent(double mu_ = 0.0) : mu(mu_) {}
    explicit GdpEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<double> gdp_mu() const override;
    std::optional<double> rdp_epsilon(double alpha) const override;

    double mu;
};

// Laplace noise of scale b on a query of L1 sensitivity Δ₁: (Δ₁/b)-DP, and the RDP curve of Mironov
// 2017, Prop. 6.
class LaplaceEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "laplace";
    static ParameterSchema schema();
    explicit LaplaceEvent(double scale_ = 0.0, double sensitivity_ = 0.0) : scale(scale_), sensitivity(sensitivity_) {}
    explicit LaplaceEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<ApproximateDp> approximate_dp() const override;
    std::optional<double> rdp_epsilon(double alpha) const override;

    double scale;
    double sensitivity;  // L1
};

// The exponential mechanism choosing one candidate with probability ∝ exp(ε·q/(2Δq)): ε-DP.
class ExponentialEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "exponential";
    static ParameterSchema schema();
    explicit ExponentialEvent(double epsilon_ = 0.0, double quality_sensitivity_ = 0.0)
        : epsilon(epsilon_), quality_sensitivity(quality_sensitivity_) {}
    explicit ExponentialEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<ApproximateDp> approximate_dp() const override;

    double epsilon;
    double quality_sensitivity;
};

// `steps` Gaussian releases (noise multiplier σ, i.e. noise σ·Δ) on subsamples drawn at rate q. It
// offers no generic view: its RDP depends on the sampling scheme and needs the rdp accountant's own
// numerics, which recognise the kind by name.
class SubsampledGaussianEvent final : public EventDescription {
public:
    enum class Sampling { Poisson, FixedSizeWithoutReplacement };
    enum class Neighbouring { AddRemoveOne, ReplaceOne };
    static constexpr std::string_view kind_name = "subsampled-gaussian";
    // q and sigma are short aliases of sampling_rate and noise_multiplier; neighbouring defaults to
    // the relation the sampling's bound is proved for (poisson: add-remove-one; without replacement:
    // replace-one), and an accountant refuses a mismatch by name.
    static ParameterSchema schema();
    explicit SubsampledGaussianEvent(double sampling_rate_ = 0.0, double noise_multiplier_ = 0.0,
                                     std::size_t steps_ = 1, Sampling sampling_ = Sampling::Poisson,
                                     Neighbouring neighbouring_ = Neighbouring::AddRemoveOne)
        : sampling_rate(sampling_rate_),
          noise_multiplier(noise_multiplier_),
          steps(steps_),
          sampling(sampling_),
          neighbouring(neighbouring_) {}
    explicit SubsampledGaussianEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;

    double sampling_rate;
    double noise_multiplier;
    std::size_t steps;
    Sampling sampling;
    Neighbouring neighbouring;
};

std::string_view to_string(SubsampledGaussianEvent::Sampling sampling);
std::string_view to_string(SubsampledGaussianEvent::Neighbouring neighbouring);

// A mechanism its author states to be ε-DP.
class PureDpEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "pure";
    static ParameterSchema schema();
    explicit PureDpEvent(double epsilon_ = 0.0) : epsilon(epsilon_) {}
    explicit PureDpEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<ApproximateDp> approximate_dp() const override;

    double epsilon;
};

// A mechanism its author states to be (ε, δ)-DP. ε = 0 with δ > 0 is the cost of a sensitivity bound
// that holds only with probability 1 − δ (Kusner et al. 2015, Theorems 1, 3, 5): charged beside the
// pure ε-DP release calibrated to that bound, basic composition makes the pair (ε, δ)-DP.
class ApproxDpEvent final : public EventDescription {
public:
    static constexpr std::string_view kind_name = "approx";
    static ParameterSchema schema();
    explicit ApproxDpEvent(double epsilon_ = 0.0, double delta_ = 0.0) : epsilon(epsilon_), delta(delta_) {}
    explicit ApproxDpEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<ApproximateDp> approximate_dp() const override;

    double epsilon;
    double delta;
};

// One charge: an event of some kind, made `repetitions` times, with a line saying what it released.
// A value: copies share the (immutable) description.
class PrivacyEvent {
public:
    template <std::derived_from<EventDescription> Description>
    PrivacyEvent(Description description, std::size_t repetitions_ = 1, std::string what_ = {})
        : PrivacyEvent(std::make_shared<const Description>(std::move(description)), repetitions_, std::move(what_)) {}
    // Throws ValidationError for a null description.
    PrivacyEvent(std::shared_ptr<const EventDescription> description, std::size_t repetitions_ = 1,
                 std::string what_ = {});

    const EventDescription& description() const { return *description_; }
    const std::shared_ptr<const EventDescription>& shared_description() const { return description_; }
    std::string_view kind() const { return description_->kind(); }
    // The description as a built-in class, or null (see EventDescription on plugin kinds).
    template <class Description>
    const Description* as() const {
        return dynamic_cast<const Description*>(description_.get());
    }

    // Throws ValidationError naming the kind, the field and its value when repetitions is 0 or the
    // description refuses itself.
    void validate() const;
    // "gaussian (sigma = 2, L2 sensitivity = 1) x 3: gradient at step 3".
    std::string describe() const;

private:
    std::shared_ptr<const EventDescription> description_;

public:
    std::size_t repetitions = 1;  // the same release made this many times
    std::string what;             // one line: "gradient at step 3"
};

// K trials, each spending `trial` (the events one trial spends, composed), with K drawn from `count`
// before any trial, releasing only the best trial (Papernot & Steinke 2022), or the first whose
// privatised score passes a threshold with stopping probability 1/E[K] per trial below it (Liu &
// Talwar 2019, thresholded random stopping). Every trial must be covered by `trial`
// (event_dominated_by). It offers approximate_dp() when that is a theorem for the trial's events
// (fixed k: composition; thresholded stopping over an ε-DP trial: 2ε; best of a geometric number of
// ε-DP trials: 3ε); the rdp accountant knows the kind by name and applies Papernot–Steinke's Thm 2
// and Thm 6 to the trial's RDP curve.
class RepeatAndSelectEvent final : public EventDescription {
public:
    enum class Release { Best, FirstAboveThreshold };
    static constexpr std::string_view kind_name = "repeat-and-select";
    // trial (event texts joined by ';', built-in kinds), count (TrialCount text), release ("best" or
    // "first-above-threshold").
    static ParameterSchema schema();
    RepeatAndSelectEvent(std::vector<PrivacyEvent> trial_, TrialCount count_, Release release_ = Release::Best);
    explicit RepeatAndSelectEvent(const ParameterSet& parameters);
    std::string_view kind() const override;
    void validate() const override;
    std::string parameter_text() const override;
    std::map<std::string, ParameterValue> parameters() const override;
    std::optional<ApproximateDp> approximate_dp() const override;

    std::vector<PrivacyEvent> trial;
    TrialCount count;
    Release release;
};

std::string_view to_string(RepeatAndSelectEvent::Release release);

// An event text's parts: KIND, its key=value items and the repetitions after a final 'x'. A value in
// parentheses may hold commas, colons and an 'x' ("trial=(gaussian:sigma=2,sensitivity=1)"); the
// outer pair is removed. Throws ValidationError naming the text and the malformed item. The one
// splitter behind parse_builtin_event and the CLI's reading of plugin kinds.
struct EventTextParts {
    std::string kind;
    std::map<std::string, std::string> values;
    std::size_t repetitions = 1;
};
EventTextParts split_event_text(std::string_view text);

// An event as the text `dpbo account --event` reads: "gaussian:sigma=2,sensitivity=1" (kind, then
// parameters() in order; repetitions as "x3"). parse_builtin_event(event_text(e)) rebuilds a
// built-in event.
std::string event_text(const PrivacyEvent& event);
// Reads an event of a built-in kind from that text; throws ValidationError naming the text, the
// unknown kind or key, or the malformed value.
PrivacyEvent parse_builtin_event(std::string_view text);

// True when `trial` costs no more than `bound` under every accountant: the same kind, and each
// parameter equal or on the cheaper side of a monotone one (fewer steps or repetitions, more noise,
// a smaller sampling rate, ε, δ, μ or sensitivity). Events of plugin kinds are covered only by an
// equal event. A list covers a list when they pair in order.
bool event_dominated_by(const PrivacyEvent& trial, const PrivacyEvent& bound);
bool events_dominated_by(const std::vector<PrivacyEvent>& trial, const std::vector<PrivacyEvent>& bound);

}  // namespace dpbo
