#include "selection_accounting.hpp"

#include <cmath>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"

namespace dpbo::cli {

TrialCount parse_select(const std::string& text) {
    try {
        return TrialCount::parse(text);
    } catch (const ValidationError& e) {
        throw ValidationError(fmt::format("--select: {}", e.what()));
    }
}

PrivacyEvent selection_event(const std::vector<PrivacyEvent>& trial, const TrialCount& count) {
    PrivacyEvent out{RepeatAndSelectEvent{trial, count}};
    out.validate();
    return out;
}

std::uint64_t compared_trials(const TrialCount& count) { return static_cast<std::uint64_t>(std::ceil(count.mean)); }

double epsilon_of(const AccountantFactory& fresh, const std::vector<PrivacyEvent>& events, double delta) {
    auto accountant = fresh();
    return call_into_module(accountant->describe_origin(), "composing the events", [&] {
        for (const PrivacyEvent& event : events) accountant->compose(event);
        return accountant->epsilon_for_delta(delta);
    });
}

std::vector<PrivacyEvent> repeated(const std::vector<PrivacyEvent>& events, std::uint64_t times) {
    std::vector<PrivacyEvent> out = events;
    for (PrivacyEvent& event : out) event.repetitions *= static_cast<std::size_t>(times);
    return out;
}

}  // namespace dpbo::cli
