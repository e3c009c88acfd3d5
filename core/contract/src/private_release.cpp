// The PrivateRelease interface's out-of-line parts: the one way a release is charged.
#include "dpbo/private_release.hpp"

#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

PrivateRelease::~PrivateRelease() = default;

std::size_t PrivateRelease::charge(PrivacyLedger& ledger, const std::string& what) const {
    PrivacyEvent charged = event();
    charged.what = what;
    return ledger.charge(charged);
}

}  // namespace dpbo
