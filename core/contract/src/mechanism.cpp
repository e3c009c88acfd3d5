// The Mechanism interface's out-of-line parts: the one path from a value to its noisy release.
#include "dpbo/mechanism.hpp"

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/run_journal.hpp"

namespace dpbo {

Mechanism::~Mechanism() = default;

arma::vec Mechanism::release(const arma::vec& value, PrivacyLedger& ledger, const std::string& what) const {
    const std::size_t entry = charge(ledger, what);
    if (auto recorded = ledger.replayed(entry)) {
        if (recorded->released.n_elem != value.n_elem)
            throw RunError(
                fmt::format("{}: release '{}' has {} values in the run's journal but {} now; the journal "
                            "belongs to another run",
                            ledger.owner(), what, recorded->released.n_elem, value.n_elem));
        return recorded->released;
    }
    arma::vec released = add_noise(value, ledger.noise_for(entry));
    ledger.record_release(entry, released);
    return released;
}

}  // namespace dpbo
