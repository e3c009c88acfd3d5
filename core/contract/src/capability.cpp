// The message of a missing capability, in one place so that every refusal reads alike.
#include <fmt/format.h>

#include "dpbo/capability.hpp"
#include "dpbo/errors.hpp"

namespace dpbo {

void throw_missing_capability(const Module& module, std::string_view capability, std::string_view what,
                              std::string_view who) {
    throw ValidationError(fmt::format("{} needs the capability {} ({}); {} does not provide it", who, capability, what,
                                      module.describe_origin()));
}

}  // namespace dpbo
