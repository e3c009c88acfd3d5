#pragma once
// Asking a module for an optional capability. A capability is an interface a module's class also
// inherits (dpbo/objective_capabilities.hpp lists the objective's); whoever needs one asks for it
// where it matters instead of reading a default every module answers:
//
//     if (const auto* records = dpbo::capability<dpbo::RecordDecomposable>(objective)) ...
//     const auto& rows = dpbo::require<dpbo::FiniteCandidates>(objective, "algorithm 'dp-ucb'");
//
// The query is a dynamic_cast across the plugin boundary. It works between a plugin and the host
// because every capability has its destructor, its key function, defined in libdpbo: the typeinfo
// both sides compare is libdpbo's (as for Module itself).
#include <string_view>

#include "dpbo/module.hpp"

namespace dpbo {

// The capability `Capability` of `module`, or null when its class does not implement it.
template <class Capability>
const Capability* capability(const Module& module) {
    return dynamic_cast<const Capability*>(&module);
}
template <class Capability>
Capability* capability(Module& module) {
    return dynamic_cast<Capability*>(&module);
}

// Throws ValidationError: "`who` needs `capability` (`what`); <module's origin> does not provide it".
[[noreturn]] void throw_missing_capability(const Module& module, std::string_view capability, std::string_view what,
                                           std::string_view who);

// The capability `Capability` of `module`; throws ValidationError naming the module (its name and
// plugin file), `who` needs it (e.g. "algorithm 'dp-gd'") and the capability, when it is missing.
// Every capability class names itself in `capability_name` and says what it provides in
// `capability_doc`.
template <class Capability>
const Capability& require(const Module& module, std::string_view who) {
    if (const Capability* found = capability<Capability>(module)) return *found;
    throw_missing_capability(module, Capability::capability_name, Capability::capability_doc, who);
}
template <class Capability>
Capability& require(Module& module, std::string_view who) {
    if (Capability* found = capability<Capability>(module)) return *found;
    throw_missing_capability(module, Capability::capability_name, Capability::capability_doc, who);
}

}  // namespace dpbo
