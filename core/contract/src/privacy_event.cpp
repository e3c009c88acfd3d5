// The open event description: its views, the words every kind refuses a parameter with, and the
// PrivacyEvent value that carries one description with its repetitions and purpose.
#include "dpbo/privacy_event.hpp"

#include <cmath>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

std::string_view to_string(SensitivityNorm norm) {
    switch (norm) {
        case SensitivityNorm::L1:
            return "L1";
        case SensitivityNorm::L2:
            return "L2";
        case SensitivityNorm::LInf:
            return "LInf";
    }
    return "unknown";
}

double vector_sensitivity(SensitivityNorm norm, double per_value, std::size_t k) {
    const double count = static_cast<double>(k);
    switch (norm) {
        case SensitivityNorm::L2:
            return per_value * std::sqrt(count);
        case SensitivityNorm::L1:
            return per_value * count;
        case SensitivityNorm::LInf:
            return per_value;
    }
    return per_value * count;
}

std::string_view to_string(EventView view) {
    switch (view) {
        case EventView::GaussianDp:
            return "a μ-GDP parameter (gdp_mu)";
        case EventView::ApproximateDp:
            return "an (ε, δ)-DP statement (approximate_dp)";
        case EventView::Renyi:
            return "an RDP curve (rdp_epsilon)";
    }
    return "an unknown view";
}

std::vector<EventView> all_event_views() { return {EventView::GaussianDp, EventView::ApproximateDp, EventView::Renyi}; }

EventDescription::~EventDescription() = default;

std::optional<double> EventDescription::gdp_mu() const { return std::nullopt; }
std::optional<ApproximateDp> EventDescription::approximate_dp() const { return std::nullopt; }
std::optional<double> EventDescription::rdp_epsilon(double) const { return std::nullopt; }

bool EventDescription::offers(EventView view) const {
    switch (view) {
        case EventView::GaussianDp:
            return gdp_mu().has_value();
        case EventView::ApproximateDp:
            return approximate_dp().has_value();
        // A curve is offered at every order or at none (the contract of rdp_epsilon); 2 is one.
        case EventView::Renyi:
            return rdp_epsilon(2.0).has_value();
    }
    return false;
}

std::vector<EventView> EventDescription::views() const {
    std::vector<EventView> out;
    for (const EventView view : all_event_views())
        if (offers(view)) out.push_back(view);
    return out;
}

double EventDescription::number(std::string_view name) const {
    const auto all = parameters();
    const auto it = all.find(std::string(name));
    if (it != all.end()) {
        if (const auto* real = std::get_if<double>(&it->second)) return *real;
        if (const auto* integer = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*integer);
    }
    std::vector<std::string> numbers;
    for (const auto& [key, value] : all)
        if (std::holds_alternative<double>(value) || std::holds_alternative<std::int64_t>(value))
            numbers.push_back(key);
    throw ValidationError(fmt::format("privacy event '{}': no numeric parameter '{}'; its numbers: {}", kind(), name,
                                      numbers.empty() ? "none" : fmt::format("{}", fmt::join(numbers, ", "))));
}

// fmt's shortest round trip, as every description has always printed its numbers (journals compare
// descriptions as text, so the format must not drift).
std::string event_number(double value) { return fmt::format("{}", value); }

void EventParameterCheck::positive(std::string_view name, double value) const {
    if (!(std::isfinite(value) && value > 0.0)) refuse(name, event_number(value), "a finite number > 0");
}
void EventParameterCheck::non_negative(std::string_view name, double value) const {
    if (!(std::isfinite(value) && value >= 0.0)) refuse(name, event_number(value), "a finite number >= 0");
}
void EventParameterCheck::in_unit_interval_right_closed(std::string_view name, double value) const {
    if (!(value > 0.0 && value <= 1.0)) refuse(name, event_number(value), "a number in (0, 1]");
}
void EventParameterCheck::probability_below_one(std::string_view name, double value) const {
    if (!(value >= 0.0 && value < 1.0)) refuse(name, event_number(value), "a number in [0, 1)");
}
void EventParameterCheck::at_least_one(std::string_view name, std::size_t value) const {
    if (value == 0) refuse(name, "0", "an integer >= 1");
}
void EventParameterCheck::refuse(std::string_view name, std::string_view value, std::string_view allowed) const {
    throw ValidationError(fmt::format("privacy event '{}': '{}' = {}; allowed: {}", kind_, name, value, allowed));
}

PrivacyEvent::PrivacyEvent(std::shared_ptr<const EventDescription> description, std::size_t repetitions_,
                           std::string what_)
    : description_(std::move(description)), repetitions(repetitions_), what(std::move(what_)) {
    if (!description_) throw ValidationError("privacy event: no description (a null EventDescription)");
}

void PrivacyEvent::validate() const {
    EventParameterCheck(kind()).at_least_one("repetitions", repetitions);
    description_->validate();
}

std::string PrivacyEvent::describe() const {
    std::string out = fmt::format("{} ({})", kind(), description_->parameter_text());
    if (repetitions != 1) out += fmt::format(" x {}", repetitions);
    if (!what.empty()) out += ": " + what;
    return out;
}

}  // namespace dpbo
