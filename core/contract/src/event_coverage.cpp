// Whether one event costs no more than another under every accountant: what a selection among
// trials needs to know of each trial it runs (its declared trial must cover every trial's events).
#include <string>
#include <string_view>
#include <variant>

#include "dpbo/event_kind.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo {

namespace {

enum class Cheaper { Smaller, Larger };

struct MonotoneKey {
    std::string_view kind;
    std::string_view key;
    Cheaper cheaper;
};

// The parameters every accountant's cost is monotone in, with the direction that is cheaper. Every
// other parameter (a sampling scheme, a neighbouring relation, the exponential mechanism's quality
// sensitivity, a selection's trial) must be equal: its effect on the cost has no order.
constexpr MonotoneKey kMonotone[] = {
    {GaussianEvent::kind_name, "sigma", Cheaper::Larger},
    {GaussianEvent::kind_name, "sensitivity", Cheaper::Smaller},
    {GdpEvent::kind_name, "mu", Cheaper::Smaller},
    {LaplaceEvent::kind_name, "scale", Cheaper::Larger},
    {LaplaceEvent::kind_name, "sensitivity", Cheaper::Smaller},
    {ExponentialEvent::kind_name, "epsilon", Cheaper::Smaller},
    // The subsampled Gaussian's RDP grows with q and the steps and falls with σ at every order.
    {SubsampledGaussianEvent::kind_name, "sampling_rate", Cheaper::Smaller},
    {SubsampledGaussianEvent::kind_name, "noise_multiplier", Cheaper::Larger},
    {SubsampledGaussianEvent::kind_name, "steps", Cheaper::Smaller},
    {PureDpEvent::kind_name, "epsilon", Cheaper::Smaller},
    {ApproxDpEvent::kind_name, "epsilon", Cheaper::Smaller},
    {ApproxDpEvent::kind_name, "delta", Cheaper::Smaller},
};

const MonotoneKey* monotone(std::string_view kind, std::string_view key) {
    for (const MonotoneKey& entry : kMonotone)
        if (entry.kind == kind && entry.key == key) return &entry;
    return nullptr;
}

std::optional<double> as_number(const ParameterValue& value) {
    if (const auto* real = std::get_if<double>(&value)) return *real;
    if (const auto* integer = std::get_if<std::int64_t>(&value)) return static_cast<double>(*integer);
    return std::nullopt;
}

bool parameter_covered(std::string_view kind, const std::string& key, const ParameterValue& trial,
                       const ParameterValue& bound, bool builtin) {
    const MonotoneKey* rule = builtin ? monotone(kind, key) : nullptr;
    const auto t = as_number(trial);
    const auto b = as_number(bound);
    if (rule && t && b) return rule->cheaper == Cheaper::Smaller ? *t <= *b : *t >= *b;
    return trial == bound;
}

}  // namespace

bool event_dominated_by(const PrivacyEvent& trial, const PrivacyEvent& bound) {
    if (trial.kind() != bound.kind() || trial.repetitions > bound.repetitions) return false;
    const bool builtin = find_builtin_event_kind(trial.kind()) != nullptr;
    const auto trial_parameters = trial.description().parameters();
    const auto bound_parameters = bound.description().parameters();
    if (trial_parameters.size() != bound_parameters.size()) return false;
    for (const auto& [key, value] : trial_parameters) {
        const auto other = bound_parameters.find(key);
        if (other == bound_parameters.end()) return false;
        if (!parameter_covered(trial.kind(), key, value, other->second, builtin)) return false;
    }
    return true;
}

bool events_dominated_by(const std::vector<PrivacyEvent>& trial, const std::vector<PrivacyEvent>& bound) {
    if (trial.size() != bound.size()) return false;
    for (std::size_t i = 0; i < trial.size(); ++i)
        if (!event_dominated_by(trial[i], bound[i])) return false;
    return true;
}

}  // namespace dpbo
