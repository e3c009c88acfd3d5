#pragma once
// The run's privacy ledger: every private release is charged here before its noise is drawn. The
// ledger composes the events through the run's accountant as they happen, refuses (BudgetExceeded)
// the release that would exceed the stated budget, keeps a log of what was released, and makes the
// run's privacy statement from what was actually charged — so what a run claims is what it spent.
//
// Privacy noise is reachable only through the ledger's private noise_for(), which only the Mechanism,
// Selection and RowRelease base classes may call: a release cannot draw privacy noise without being
// charged. Each release draws from its own stream (PrivacyNoiseSource::stream, numbered by its entry)
// of a key the ledger derives from the run's noise source when it is made.
//
// With a journal (dpbo/run_journal.hpp) every release is made durable before its value is handed
// back, and a release the journal already holds is charged again but not drawn again: its value is
// the journal's. So a resumed run composes exactly what the uninterrupted run composed and the log
// shows each release once.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Accountant;
class Mechanism;
class PrivacyNoiseSource;
class RowRelease;
class RunJournal;
class Selection;
struct RecordedRelease;

// A stated budget: "mu=1" (μ-GDP), "epsilon=3,delta=1e-5" ((ε, δ)-DP) or "epsilon=1" (ε-DP).
//
// Rounding: T releases at μ/√T compose to sqrt(T·(μ/√T)²), which can exceed μ by an ulp or two
// although the calibration spent exactly μ. A budget is therefore met when the spend is at most the
// budget times (1 + kRelativeTolerance), 4 units in the last place; the statement of a run with a
// budget says so. The tolerance is far below any privacy parameter's meaningful digits and below the
// accuracy of the conversions themselves.
struct PrivacyBudget {
    static constexpr double kRelativeTolerance = 4.0 * 0x1.0p-52;

    std::optional<double> mu;
    std::optional<double> epsilon;
    double delta = 0.0;  // with epsilon; 0: pure ε-DP

    // Throws ValidationError naming the text, the offending key or value and what is allowed.
    static PrivacyBudget parse(const std::string& text);
    // "mu=1" / "epsilon=3,delta=1e-05" / "epsilon=1": parse(text()) gives the same budget.
    std::string text() const;
    // "1-GDP" / "(3, 1e-05)-DP" / "1-DP".
    std::string describe() const;
};

// A second budget outside the run that every charge must also pass: the dataset's lifetime ledger
// (`dpbo run --ledger FILE`, kept by the host). The run's ledger asks it after the run's own budget
// accepted the charge and before anything is composed or any noise drawn.
class ChargeGate {
public:
    virtual ~ChargeGate();
    // `charge` numbers the run's charges from 0 in the order they are made, so a resumed or replayed
    // run asks again with the same numbers and events: a gate that has admitted a charge admits it
    // again without counting it twice. Throws BudgetExceeded to refuse the charge.
    virtual void admit(std::size_t charge, const PrivacyEvent& event) = 0;
};

// One charged release: its event (with `what`) and, for mechanism and selection releases, what it
// released (empty for a direct charge).
struct LedgerEntry {
    PrivacyEvent event;
    arma::vec released;
};

class PrivacyLedger {
public:
    enum class Log { Keep, Discard };

    // `owner` names the algorithm in errors ("algorithm 'dp-gibo'"). Log::Discard keeps no entries,
    // for audits that release hundreds of thousands of times; the composition is kept either way.
    PrivacyLedger(std::shared_ptr<Accountant> accountant, std::optional<PrivacyBudget> budget,
                  PrivacyNoiseSource& noise, std::string owner, Log log = Log::Keep);
    ~PrivacyLedger();
    PrivacyLedger(const PrivacyLedger&) = delete;
    PrivacyLedger& operator=(const PrivacyLedger&) = delete;

    // The algorithm states once what its guarantee protects ("replace one record", "one record of
    // the objective's data"); stating it again with other words is a RunError.
    void set_scope(const std::string& neighbouring, const std::string& protected_unit);
    bool has_scope() const { return !neighbouring_.empty(); }

    // Checks the event, composes it on a copy of the accountant and compares with the budget; throws
    // ValidationError for an invalid or unaccountable event, RunError without a scope, BudgetExceeded
    // when the budget would be exceeded — in every case before anything is composed or drawn. Returns
    // the entry's index in the log (or the count of charges when the log is discarded).
    std::size_t charge(const PrivacyEvent& event);

    // Charges `event` as charge() does and hands back the noise stream of its entry, for a mechanism
    // an algorithm runs itself around trials that are private learners: a private selection's K and
    // its sampler of hyperparameters (RepeatAndSelectEvent). The stream depends only on the run's key
    // and the entry, so a resumed run that charges the same events draws the same values.
    PrivacyNoiseSource& charge_and_draw(const PrivacyEvent& event);
    // The privacy noise of batch `batch`'s trials, for objectives whose evaluations are private
    // learners (PrivateTrials, EvaluationRequest::trial_noise): a stream of the run's key numbered
    // apart from every release's, so trials and releases never share bits, charged by the host with
    // the events each trial declares.
    PrivacyNoiseSource trial_noise(std::uint64_t batch) const;

    std::size_t charges() const { return charges_; }
    const std::vector<LedgerEntry>& log() const { return log_; }
    const std::optional<PrivacyBudget>& budget() const { return budget_; }
    const std::string& owner() const { return owner_; }
    // The composition so far, in the accountant's native notion; RunError when nothing was charged.
    PrivacyStatement spent() const;

    // The run's statement. Numbers (notion, ε, δ, μ, RDP curve, equivalents) come from the
    // accountant's total(); the words (released, assumptions, mechanism) from `described`, the scope
    // from set_scope(). With nothing charged the statement is `described`, which must then be not
    // private: an algorithm claiming a private notion without a charge is a RunError. A description
    // that claims nothing keeps claiming nothing even after charges (something else was released
    // exactly), with the spend named in its mechanism line.
    PrivacyStatement statement_for(const PrivacyStatement& described) const;

    // Every release from now on is recorded in (and, when recorded before, taken from) `journal`,
    // which must outlive the ledger's use; null detaches it. RunError for a ledger that discards its
    // log (the journal checks each release against the logged event).
    void attach_journal(RunJournal* journal);
    // Every charge from now on must also pass `gate`, which must outlive the ledger's use; null
    // detaches it.
    void set_charge_gate(ChargeGate* gate) { gate_ = gate; }

private:
    friend class Mechanism;
    friend class Selection;
    friend class RowRelease;
    // Release `entry`'s noise: stream `entry` of the ledger's key.
    PrivacyNoiseSource& noise_for(std::size_t entry);
    // Release `entry` as the journal holds it (logged again), or nothing when it is new.
    std::optional<RecordedRelease> replayed(std::size_t entry);
    // Logs release `entry` and makes it durable in the journal.
    void record_release(std::size_t entry, const arma::vec& released,
                        const std::vector<ReleasedValue>& evaluation_only = {});

    void check_budget(const Accountant& trial, const PrivacyEvent& event) const;

    std::shared_ptr<Accountant> accountant_;
    std::optional<PrivacyBudget> budget_;
    std::unique_ptr<PrivacyNoiseSource> key_;
    std::unique_ptr<PrivacyNoiseSource> release_noise_;
    RunJournal* journal_ = nullptr;
    ChargeGate* gate_ = nullptr;
    std::string owner_;
    Log log_mode_;
    std::string neighbouring_;
    std::string protected_unit_;
    std::size_t charges_ = 0;
    std::vector<LedgerEntry> log_;
};

}  // namespace dpbo
