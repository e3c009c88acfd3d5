#pragma once
// What `dpbo account --select` and `dpbo plan` both compute: the ε at δ of one trial, of a selection
// among K trials (K from a stated distribution, only the best released), and of the composition of
// E[K] trials — each by a fresh accountant of the same module, so the three compare like for like.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/accountant.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::cli {

using AccountantFactory = std::function<std::shared_ptr<Accountant>()>;

// --select's text read into K's distribution; ValidationError naming --select, the text and what is
// allowed.
TrialCount parse_select(const std::string& text);

// The selection event over one trial's events.
PrivacyEvent selection_event(const std::vector<PrivacyEvent>& trial, const TrialCount& count);

// The number of trials a composition comparison charges: E[K] rounded up.
std::uint64_t compared_trials(const TrialCount& count);

// ε at δ of the events composed by a fresh accountant.
double epsilon_of(const AccountantFactory& fresh, const std::vector<PrivacyEvent>& events, double delta);
// The same events, each repeated `times` more times (the composition of `times` trials).
std::vector<PrivacyEvent> repeated(const std::vector<PrivacyEvent>& events, std::uint64_t times);

}  // namespace dpbo::cli
