#pragma once
// The ledgers of one audited world: every run is one release of the claim under test, so each run is
// charged on a ledger of its own, as a real user's one release would be. Composing every run in one
// ledger would audit the wrong claim — N releases rather than one — and an (ε, δ) claim would stop at
// N = 1/δ, where basic composition guarantees nothing. Each run's noise still comes only through a
// ledger that charged the release first; its key is derived from the world's noise source, so runs
// never share noise bits.
#include <memory>
#include <optional>
#include <string>

#include "dpbo/privacy_ledger.hpp"

namespace dpbo {
class Accountant;
class PrivacyNoiseSource;
}  // namespace dpbo

namespace dpbo::audit {

class RunLedgers {
public:
    // `accountant` (nothing composed yet) is cloned for every run; `noise` is the world's source and
    // must outlive this object. Every ledger keeps no log and states the scope given here.
    RunLedgers(std::shared_ptr<const Accountant> accountant, PrivacyNoiseSource& noise, std::string owner,
               std::string neighbouring, std::string protected_unit);

    // A fresh ledger for the next run, with nothing charged; the previous run's ledger is gone.
    PrivacyLedger& next_run();

private:
    std::shared_ptr<const Accountant> accountant_;
    PrivacyNoiseSource& noise_;
    std::string owner_;
    std::string neighbouring_;
    std::string protected_unit_;
    std::optional<PrivacyLedger> current_;  // built in place: a ledger can be neither copied nor moved
};

}  // namespace dpbo::audit
