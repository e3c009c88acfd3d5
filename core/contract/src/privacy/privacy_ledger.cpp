#include "dpbo/privacy_ledger.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/random.hpp"
#include "dpbo/run_journal.hpp"

namespace dpbo {

namespace {

constexpr const char* kBudgetForms = "mu=M, epsilon=E,delta=D, or epsilon=E";

double budget_number(const std::string& text, const std::string& key, const std::string& value) {
    std::size_t used = 0;
    double number = 0.0;
    try {
        number = std::stod(value, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (value.empty() || used != value.size() || !std::isfinite(number))
        throw ValidationError(fmt::format("--budget '{}': {} = '{}' is not a finite number", text, key, value));
    return number;
}

// What the budget is compared with, read from the accountant (module code, so guarded) in one go.
struct Spend {
    PrivacyStatement total;         // μ budgets only
    double delta_with_slack = 0.0;  // δ at the budget's ε widened by the tolerance (ε budgets only)
};

Spend read_spend(const Accountant& trial, const PrivacyBudget& budget, double slack) {
    return call_into_module(trial.describe_origin(), "converting the privacy spend", [&] {
        Spend spend;
        if (budget.mu)
            spend.total = trial.total();
        else
            spend.delta_with_slack = trial.delta_for_epsilon(*budget.epsilon * slack);
        return spend;
    });
}

// The spend the budget is compared with, in the budget's own terms, for messages.
std::string describe_spend(const Accountant& trial, const Spend& spend, const PrivacyBudget& budget) {
    if (budget.mu) return fmt::format("mu = {}", spend.total.mu);
    const double delta = call_into_module(trial.describe_origin(), "converting the privacy spend",
                                          [&] { return trial.delta_for_epsilon(*budget.epsilon); });
    return fmt::format("delta = {} at epsilon = {}", delta, *budget.epsilon);
}

}  // namespace

PrivacyBudget PrivacyBudget::parse(const std::string& text) {
    std::map<std::string, double> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        const auto eq = item.find('=');
        if (eq == std::string::npos || eq == 0)
            throw ValidationError(
                fmt::format("--budget '{}': '{}' is not key=value; allowed: {}", text, item, kBudgetForms));
        const std::string key = item.substr(0, eq);
        if (key != "mu" && key != "epsilon" && key != "delta")
            throw ValidationError(
                fmt::format("--budget '{}': unknown key '{}'; allowed keys: mu, epsilon, delta", text, key));
        if (values.count(key)) throw ValidationError(fmt::format("--budget '{}': '{}' is given twice", text, key));
        values[key] = budget_number(text, key, item.substr(eq + 1));
        start = end + 1;
    }
    const auto positive = [&](const char* key) {
        const double value = values.at(key);
        if (!(value > 0.0))
            throw ValidationError(
                fmt::format("--budget '{}': {} = {}; allowed: a finite number > 0", text, key, value));
        return value;
    };
    PrivacyBudget budget;
    if (values.count("mu")) {
        if (values.size() != 1) {
            throw ValidationError(fmt::format(
                "--budget '{}': mu is a μ-GDP budget and cannot be mixed with epsilon or delta; allowed: {}", text,
                kBudgetForms));
        }
        budget.mu = positive("mu");
        return budget;
    }
    if (!values.count("epsilon"))
        throw ValidationError(fmt::format("--budget '{}': delta needs an epsilon; allowed: {}", text, kBudgetForms));
    budget.epsilon = positive("epsilon");
    if (values.count("delta")) {
        budget.delta = values.at("delta");
        if (!(budget.delta >= 0.0 && budget.delta < 1.0))
            throw ValidationError(
                fmt::format("--budget '{}': delta = {}; allowed: a number in [0, 1)", text, budget.delta));
    }
    return budget;
}

std::string PrivacyBudget::text() const {
    if (mu) return fmt::format("mu={}", *mu);
    if (delta > 0.0) return fmt::format("epsilon={},delta={}", *epsilon, delta);
    return fmt::format("epsilon={}", *epsilon);
}

std::string PrivacyBudget::describe() const {
    if (mu) return fmt::format("{}-GDP", *mu);
    if (delta > 0.0) return fmt::format("({}, {})-DP", *epsilon, delta);
    return fmt::format("{}-DP", *epsilon);
}

ChargeGate::~ChargeGate() = default;

PrivacyLedger::PrivacyLedger(std::shared_ptr<Accountant> accountant, std::optional<PrivacyBudget> budget,
                             PrivacyNoiseSource& noise, std::string owner, Log log)
    : accountant_(std::move(accountant)),
      budget_(std::move(budget)),
      key_(std::make_unique<PrivacyNoiseSource>(noise.derive())),
      owner_(std::move(owner)),
      log_mode_(log) {
    if (!accountant_) throw RunError(fmt::format("{}: the privacy ledger was given no accountant", owner_));
}

PrivacyLedger::~PrivacyLedger() = default;

void PrivacyLedger::set_scope(const std::string& neighbouring, const std::string& protected_unit) {
    if (neighbouring.empty() || protected_unit.empty()) {
        throw RunError(
            fmt::format("{}: the privacy scope needs a neighbouring relation and a protected unit (got "
                        "'{}' and '{}')",
                        owner_, neighbouring, protected_unit));
    }
    if (has_scope() && (neighbouring != neighbouring_ || protected_unit != protected_unit_)) {
        throw RunError(
            fmt::format("{}: the privacy scope was stated as '{}' protecting '{}' and again as '{}' "
                        "protecting '{}'; a run has one scope",
                        owner_, neighbouring_, protected_unit_, neighbouring, protected_unit));
    }
    neighbouring_ = neighbouring;
    protected_unit_ = protected_unit;
}

void PrivacyLedger::check_budget(const Accountant& trial, const PrivacyEvent& event) const {
    const PrivacyBudget& budget = *budget_;
    constexpr double kSlack = 1.0 + PrivacyBudget::kRelativeTolerance;
    const Spend spend = read_spend(trial, budget, kSlack);
    bool within = false;
    if (budget.mu) {
        const PrivacyStatement& total = spend.total;
        if (total.notion != PrivacyNotion::GaussianDP) {
            throw ValidationError(fmt::format(
                "{}: the budget {} is stated in mu, but the run's accountant composes to {}; state the budget as "
                "epsilon=E,delta=D (or epsilon=E) instead",
                owner_, budget.text(), to_string(total.notion)));
        }
        within = total.mu <= *budget.mu * kSlack;
    } else {
        const double delta = spend.delta_with_slack;
        within = budget.delta == 0.0 ? delta == 0.0 : delta <= budget.delta * kSlack;
    }
    if (!within) {
        throw BudgetExceeded(fmt::format(
            "{}: release refused: {} would bring the spend to {}, beyond the budget {} ({}); {} earlier release(s) "
            "stand",
            owner_, event.what.empty() ? event.describe() : fmt::format("'{}' ({})", event.what, event.describe()),
            describe_spend(trial, spend, budget), budget.text(), budget.describe(), charges_));
    }
}

std::size_t PrivacyLedger::charge(const PrivacyEvent& event) {
    event.validate();
    if (!has_scope()) {
        throw RunError(
            fmt::format("{}: charged a privacy event ({}) before stating its privacy scope; call "
                        "set_scope(neighbouring, protected unit) first",
                        owner_, event.describe()));
    }
    if (budget_ || gate_ != nullptr) {
        // The copy takes the release; the ledger's own composition changes only once the budget and
        // the gate passed it (an event the accountant refuses is refused before the gate counts it).
        std::unique_ptr<Accountant> trial =
            call_into_module(accountant_->describe_origin(), "composing a release", [&] {
                std::unique_ptr<Accountant> copy = accountant_->clone();
                copy->compose(event);
                return copy;
            });
        if (budget_) check_budget(*trial, event);
        if (gate_ != nullptr) gate_->admit(charges_, event);
        accountant_ = std::move(trial);
    } else {
        call_into_module(accountant_->describe_origin(), "composing a release", [&] { accountant_->compose(event); });
    }
    ++charges_;
    if (log_mode_ == Log::Discard) return charges_ - 1;
    log_.push_back({event, {}});
    return log_.size() - 1;
}

void PrivacyLedger::attach_journal(RunJournal* journal) {
    if (journal != nullptr && log_mode_ == Log::Discard)
        throw RunError(fmt::format("{}: a ledger that discards its log cannot keep a journal", owner_));
    journal_ = journal;
}

PrivacyNoiseSource& PrivacyLedger::charge_and_draw(const PrivacyEvent& event) { return noise_for(charge(event)); }

// Releases are numbered from 0 by their entry; trial streams take the upper half of the 64-bit
// stream numbers, which no count of releases reaches.
PrivacyNoiseSource PrivacyLedger::trial_noise(std::uint64_t batch) const {
    constexpr std::uint64_t kTrialStreams = std::uint64_t{1} << 63;
    if (batch >= kTrialStreams) throw RunError(fmt::format("{}: trial batch number {} out of range", owner_, batch));
    return key_->stream(kTrialStreams | batch);
}

PrivacyNoiseSource& PrivacyLedger::noise_for(std::size_t entry) {
    release_noise_ = std::make_unique<PrivacyNoiseSource>(key_->stream(static_cast<std::uint64_t>(entry)));
    return *release_noise_;
}

std::optional<RecordedRelease> PrivacyLedger::replayed(std::size_t entry) {
    if (journal_ == nullptr) return std::nullopt;
    LedgerEntry& logged = log_.at(entry);
    std::optional<RecordedRelease> recorded = journal_->recorded_release(entry, logged.event);
    if (recorded) logged.released = recorded->released;
    return recorded;
}

void PrivacyLedger::record_release(std::size_t entry, const arma::vec& released,
                                   const std::vector<ReleasedValue>& evaluation_only) {
    if (log_mode_ == Log::Discard) return;
    LedgerEntry& logged = log_.at(entry);
    logged.released = released;
    if (journal_ != nullptr) journal_->record_release(entry, {logged.event.describe(), released, evaluation_only});
}

PrivacyStatement PrivacyLedger::spent() const {
    if (charges_ == 0) throw RunError(fmt::format("{}: nothing was charged to the privacy ledger", owner_));
    return call_into_module(accountant_->describe_origin(), "stating the privacy spent",
                            [&] { return accountant_->total(); });
}

PrivacyStatement PrivacyLedger::statement_for(const PrivacyStatement& described) const {
    const bool claims_privacy = described.notion != PrivacyNotion::NotPrivate;
    if (charges_ == 0) {
        if (claims_privacy) {
            throw RunError(
                fmt::format("{} claims {} but charged no release to the privacy ledger; a run claims "
                            "only what it spent",
                            owner_, to_string(described.notion)));
        }
        return described;
    }
    const PrivacyStatement total = call_into_module(accountant_->describe_origin(), "stating the privacy spent",
                                                    [&] { return accountant_->total(); });
    if (!claims_privacy) {
        PrivacyStatement statement = described;
        statement.mechanism += fmt::format(
            "{}the {} private release(s) composed to {}, but the run also releases "
            "values outside the ledger",
            statement.mechanism.empty() ? "" : "; ", charges_, total.headline());
        return statement;
    }
    if ((!described.neighbouring.empty() && described.neighbouring != neighbouring_) ||
        (!described.protected_unit.empty() && described.protected_unit != protected_unit_)) {
        throw RunError(
            fmt::format("{}: its statement describes '{}' protecting '{}', its ledger scope is '{}' "
                        "protecting '{}'",
                        owner_, described.neighbouring, described.protected_unit, neighbouring_, protected_unit_));
    }
    PrivacyStatement statement = total;
    statement.neighbouring = neighbouring_;
    statement.protected_unit = protected_unit_;
    statement.released = described.released;
    statement.assumptions = described.assumptions;
    statement.not_protected = described.not_protected;
    statement.conditional_on = described.conditional_on;
    statement.assumptions.insert(statement.assumptions.end(), total.assumptions.begin(), total.assumptions.end());
    statement.mechanism =
        described.mechanism.empty() ? total.mechanism : fmt::format("{}; {}", described.mechanism, total.mechanism);
    if (budget_) {
        statement.assumptions.push_back(fmt::format(
            "the budget {} was enforced before every release, up to a relative tolerance of {:.2g} (4 units in "
            "the last place) for the rounding of the composition",
            budget_->text(), PrivacyBudget::kRelativeTolerance));
    }
    return statement;
}

}  // namespace dpbo
