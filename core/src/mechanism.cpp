// The Mechanism interface's out-of-line parts: the one path from a value to its noisy release.
#include "dpbo/mechanism.hpp"

#include "dpbo/privacy_ledger.hpp"

namespace dpbo {

Mechanism::~Mechanism() = default;

arma::vec Mechanism::release(const arma::vec& value, PrivacyLedger& ledger, const std::string& what) const {
    const std::size_t entry = charge(ledger, what);
    arma::vec released = add_noise(value, ledger.noise());
    ledger.record_release(entry, released);
    return released;
}

}  // namespace dpbo
