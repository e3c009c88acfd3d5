#pragma once
// The checks of each kind (one file each), called by check_module (conformance.cpp).
#include <functional>
#include <memory>

#include "checklist.hpp"

namespace dpbo {
class Accountant;
class Objective;
class PluginRegistry;
class PrivateRelease;
}  // namespace dpbo

namespace dpbo::conformance {

// `release` is checked in place (it ends calibrated); `fresh` builds another like it, uncalibrated.
void check_private_release(Checklist& list, PluginRegistry& registry, const std::shared_ptr<PrivateRelease>& release,
                           const std::function<std::shared_ptr<PrivateRelease>()>& fresh);
// `fresh` builds a new accountant with the parameters under test, nothing composed.
void check_accountant(Checklist& list, const std::function<std::shared_ptr<Accountant>()>& fresh);
void check_objective(Checklist& list, const std::shared_ptr<Objective>& objective);

}  // namespace dpbo::conformance
