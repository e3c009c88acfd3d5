// The Accountant interface's out-of-line parts.
#include "dpbo/accountant.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

Accountant::~Accountant() = default;

bool Accountant::accepts(PrivacyEventKind kind) const {
    const std::vector<PrivacyEventKind> accepted = accepted_kinds();
    return std::find(accepted.begin(), accepted.end(), kind) != accepted.end();
}

void Accountant::check_event(const PrivacyEvent& event, const std::string& owner) const {
    if (!accepts(event.kind())) {
        std::vector<std::string_view> names;
        for (const PrivacyEventKind kind : accepted_kinds()) names.push_back(to_string(kind));
        throw ValidationError(fmt::format("{}: cannot account a '{}' event{}; it accepts: {}", owner,
                                          to_string(event.kind()), event.what.empty() ? "" : " (" + event.what + ")",
                                          fmt::join(names, ", ")));
    }
    event.validate();
}

}  // namespace dpbo
