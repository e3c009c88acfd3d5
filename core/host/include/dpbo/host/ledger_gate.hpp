#pragma once
// What connects a run's privacy ledger to a dataset's lifetime ledger (`--ledger FILE`): a
// ChargeGate (dpbo/privacy_ledger.hpp) that prices each charge with a fresh copy of the run's
// accountant — the event composed alone, in the accountant's native notion — converts the price to
// the lifetime filter's coordinates, and charges it to the file before the run's ledger lets any
// noise be drawn. A charge the file holds for this run already (a resumed run, a replayed study) is
// recognised by its number and event and not counted again.
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dpbo/host/lifetime_ledger.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class Accountant;

// A release's price in `filter`'s coordinates from its statement alone (the accountant's total of
// that one event): GDP filter, μ² of a μ-GDP statement; Rényi filter, ε(α) at each order of an RDP
// curve (at the next order the curve states when it lacks one: ε(α) does not decrease in α), αμ²/2
// of μ-GDP, min(ε, αε²/2) of ε-DP (Bun & Steinke 2016, Prop. 1.4); basic filter, ε of ε-DP.
// ValidationError naming the ledger file, its budget and `accountant` when the statement's notion
// cannot be priced under the filter (another notion than the run's accountant states).
std::vector<double> lifetime_cost(const PrivacyFilter& filter, const PrivacyStatement& single,
                                  const std::string& ledger_file, const std::string& accountant);

class LedgerGate final : public ChargeGate {
public:
    // `fresh` is a copy of `accountant` (the run's) before anything was composed — a copy has no
    // origin, so the run's accountant names it in errors and entries; `run` is the token the run's
    // journal or study file keeps; `source` names the run in the ledger ("run results/x").
    LedgerGate(LifetimeLedger& ledger, const Accountant& accountant, std::string run, std::string source);
    ~LedgerGate() override;

    void admit(std::size_t charge, const PrivacyEvent& event) override;

    // Charges this run made to the file now, and those it found there already.
    std::size_t counted() const { return counted_; }
    std::size_t recognised() const { return recognised_; }

private:
    LifetimeLedger& ledger_;
    std::unique_ptr<Accountant> fresh_;
    std::string origin_;  // "accountant 'gdp' (from ...)": for module errors
    std::string name_;    // "accountant 'gdp'": for messages and entries
    std::string run_;
    std::string source_;
    std::vector<std::string> recorded_;  // the run's charges in the file when it started
    std::size_t counted_ = 0;
    std::size_t recognised_ = 0;
};

// A new run token: 128 random bits as hexadecimal.
std::string new_ledger_run_token();

}  // namespace dpbo
