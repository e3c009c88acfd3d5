// The Accountant interface's out-of-line parts: which events it accepts, and the words of a refusal.
#include "dpbo/accountant.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

// A selection's views depend on its trial: this one, over a pure trial, offers (ε, δ).
PrivacyEvent selection_example() {
    TrialCount geometric;
    geometric.family = TrialCount::Family::TruncatedNegativeBinomial;
    geometric.mean = 10.0;
    return PrivacyEvent{RepeatAndSelectEvent{{PrivacyEvent{PureDpEvent{1.0}}}, geometric}};
}

// One valid event of every built-in kind, in the order of builtin_event_kinds(): the views a kind
// offers do not depend on its values (but for the selection's, above).
const std::vector<PrivacyEvent>& builtin_examples() {
    static const std::vector<PrivacyEvent> examples = {PrivacyEvent{GaussianEvent{1.0, 1.0}},
                                                       PrivacyEvent{GdpEvent{1.0}},
                                                       PrivacyEvent{LaplaceEvent{1.0, 1.0}},
                                                       PrivacyEvent{ExponentialEvent{1.0, 1.0}},
                                                       PrivacyEvent{SubsampledGaussianEvent{0.5, 1.0, 1}},
                                                       PrivacyEvent{PureDpEvent{1.0}},
                                                       PrivacyEvent{ApproxDpEvent{1.0, 1e-6}},
                                                       selection_example()};
    return examples;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// "a, b or c" / "a and b".
template <class Range>
std::string listed(const Range& items, const char* last_word) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0) out += i + 1 == items.size() ? fmt::format(" {} ", last_word) : ", ";
        out += fmt::format("{}", items[i]);
    }
    return out;
}

}  // namespace

Accountant::~Accountant() = default;

bool Accountant::accepts(const PrivacyEvent& event) const {
    const AcceptedEvents accepted = accepted_events();
    if (contains(accepted.kinds, event.kind())) return true;
    return std::any_of(accepted.views.begin(), accepted.views.end(),
                       [&](EventView view) { return event.description().offers(view); });
}

std::vector<std::string> Accountant::accepted_kind_names() const {
    std::vector<std::string> names = accepted_events().kinds;
    for (const PrivacyEvent& example : builtin_examples()) {
        const std::string kind(example.kind());
        if (!contains(names, kind) && accepts(example)) names.push_back(kind);
    }
    return names;
}

std::string Accountant::refusal(const PrivacyEvent& event) const {
    if (accepts(event)) return {};
    const AcceptedEvents accepted = accepted_events();
    std::string out =
        fmt::format("cannot account a '{}' event{}", event.kind(), event.what.empty() ? "" : " (" + event.what + ")");
    if (!accepted.views.empty()) {
        std::vector<std::string_view> needed, offered;
        for (const EventView view : accepted.views) needed.push_back(to_string(view));
        for (const EventView view : event.description().views()) offered.push_back(to_string(view));
        out +=
            fmt::format(": it composes any event offering {}, and '{}' offers {}", listed(needed, "or"), event.kind(),
                        offered.empty() ? std::string("none of the views") : "only " + listed(offered, "and"));
    }
    const std::vector<std::string> names = accepted_kind_names();
    out += fmt::format("; it accepts: {}",
                       names.empty() ? std::string("no kind") : fmt::format("{}", fmt::join(names, ", ")));
    return out;
}

void Accountant::check_event(const PrivacyEvent& event, const std::string& owner) const {
    if (const std::string why = refusal(event); !why.empty()) throw ValidationError(fmt::format("{}: {}", owner, why));
    event.validate();
}

}  // namespace dpbo
