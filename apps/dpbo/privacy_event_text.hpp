#pragma once
// `dpbo account --event KIND:key=value,...[xR]` read into a privacy event of any kind: a built-in
// one (event_kind.hpp) or one a plugin adds as an "event" module. Nothing here knows a kind: the
// keys, their types and the event come from the kind's schema and builder.
#include <string>

#include "dpbo/host/registry.hpp"
#include "dpbo/privacy_event.hpp"

namespace dpbo::cli {

// Every key the kind's schema requires must be given once, no key it does not declare. Throws
// ValidationError naming the text, the unknown kind (with the known ones) or key (with the kind's
// keys), a missing key, or a malformed value; the event is validated.
PrivacyEvent parse_privacy_event(const std::string& text, PluginRegistry& registry);

// "gaussian (sigma, sensitivity), gdp (mu), ...": the built-in kinds and their keys, for --help.
std::string describe_builtin_event_kinds();

}  // namespace dpbo::cli
