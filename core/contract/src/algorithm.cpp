// The Algorithm and RunObserver interfaces' out-of-line parts, and the role map of a run.
#include "dpbo/algorithm.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/observer.hpp"

namespace dpbo {

Algorithm::~Algorithm() = default;
RunObserver::~RunObserver() = default;

void RoleModules::add(const std::string& role, std::shared_ptr<Module> module) {
    if (!module) throw RunError(fmt::format("role '{}': no module given", role));
    if (!modules_.emplace(role, std::move(module)).second)
        throw RunError(fmt::format("role '{}' was given a module twice", role));
}

void RoleModules::throw_wrong_kind(const std::string& role, ModuleKind expected, ModuleKind given) {
    throw RunError(fmt::format("role '{}' holds a {} module, but the algorithm reads it as a {}", role,
                               to_string(given), to_string(expected)));
}

}  // namespace dpbo
