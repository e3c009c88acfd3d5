#pragma once
// An observer that also follows a repeat's privacy ledger while it runs (the progress line's privacy
// spent so far). The runner hands the ledger to an observer that is a LedgerWatcher before the
// algorithm runs and takes it back when the run ends, whatever way it ends; the ledger must not be
// read after that.
namespace dpbo {

class PrivacyLedger;

class LedgerWatcher {
public:
    virtual ~LedgerWatcher() = default;
    // The repeat's ledger, or nullptr once the repeat has ended.
    virtual void watch_ledger(const PrivacyLedger* ledger) = 0;
};

}  // namespace dpbo
