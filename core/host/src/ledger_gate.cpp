#include "dpbo/host/ledger_gate.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/random.hpp"

namespace dpbo {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// A product rounded up: the price must never be below the exact one.
double up(double value) { return std::isfinite(value) ? std::nextafter(value, kInfinity) : kInfinity; }

// ε(α) of an RDP curve, at α or at the next order it states (ε(α) does not decrease in α); +∞ when
// it states none at or above α.
double curve_at(const std::vector<std::pair<double, double>>& curve, double alpha) {
    double best = kInfinity;
    double best_order = kInfinity;
    for (const auto& [order, epsilon] : curve)
        if (order >= alpha && order < best_order) {
            best_order = order;
            best = epsilon;
        }
    return best;
}

}  // namespace

std::vector<double> lifetime_cost(const PrivacyFilter& filter, const PrivacyStatement& single,
                                  const std::string& ledger_file, const std::string& accountant) {
    const auto refuse = [&](const std::string& needs) {
        return ValidationError(fmt::format(
            "lifetime ledger '{}' has the budget {} ({} filter) and prices releases as {}, but {} states a release as "
            "{}; run with an accountant that does (--accountant {}), or use a ledger created for this notion",
            ledger_file, filter.budget().text(), filter.name(), needs, accountant, to_string(single.notion),
            filter.kind() == PrivacyFilter::Kind::Gdp
                ? "gdp"
                : (filter.kind() == PrivacyFilter::Kind::Renyi ? "rdp" : "basic")));
    };
    switch (filter.kind()) {
        case PrivacyFilter::Kind::Gdp:
            if (single.notion != PrivacyNotion::GaussianDP) throw refuse("mu-GDP");
            return {up(single.mu * single.mu)};
        case PrivacyFilter::Kind::PureBasic:
            if (single.notion != PrivacyNotion::PureDP) throw refuse("pure epsilon-DP");
            return {single.epsilon};
        case PrivacyFilter::Kind::Renyi: {
            std::vector<double> cost;
            for (const double alpha : filter.orders()) {
                switch (single.notion) {
                    case PrivacyNotion::Renyi:
                        cost.push_back(curve_at(single.rdp_curve, alpha));
                        break;
                    case PrivacyNotion::GaussianDP:
                        cost.push_back(up(up(alpha * single.mu * single.mu) / 2.0));
                        break;
                    case PrivacyNotion::PureDP:
                        cost.push_back(std::min(single.epsilon, up(up(alpha * single.epsilon * single.epsilon) / 2.0)));
                        break;
                    default:
                        throw refuse("an RDP curve (RDP, mu-GDP or pure epsilon-DP)");
                }
            }
            return cost;
        }
    }
    throw refuse("its filter's notion");
}

LedgerGate::LedgerGate(LifetimeLedger& ledger, const Accountant& accountant, std::string run, std::string source)
    : ledger_(ledger),
      origin_(accountant.describe_origin()),
      name_(accountant.origin().name.empty() ? std::string("accountant")
                                             : fmt::format("accountant '{}'", accountant.origin().name)),
      run_(std::move(run)),
      source_(std::move(source)) {
    fresh_ = call_into_module(origin_, "copying itself", [&] { return accountant.clone(); });
    if (!fresh_) throw RunError(fmt::format("{} gave no copy of itself for the lifetime ledger", origin_));
    // A tampered ledger admits nothing: its sums could not be trusted.
    ledger_.verify();
    recorded_ = ledger_.charged(run_);
}

LedgerGate::~LedgerGate() = default;

void LedgerGate::admit(std::size_t charge, const PrivacyEvent& event) {
    const std::string text = event.describe();
    if (charge < recorded_.size()) {
        if (recorded_[charge] != text)
            throw RunError(fmt::format(
                "lifetime ledger '{}': charge {} of this run was '{}' and is now '{}'; the run does not repeat what "
                "it charged, so it cannot be resumed against this ledger",
                ledger_.file().string(), charge + 1, recorded_[charge], text));
        ++recognised_;
        return;
    }
    const PrivacyStatement single = call_into_module(origin_, "pricing a release for the lifetime ledger", [&] {
        std::unique_ptr<Accountant> alone = fresh_->clone();
        alone->compose(event);
        return alone->total();
    });
    const std::vector<double> cost = lifetime_cost(ledger_.filter(), single, ledger_.file().string(), name_);
    const std::string what =
        event.what.empty() ? event.describe() : fmt::format("'{}' ({})", event.what, event.describe());
    const ChargeOutcome outcome = ledger_.charge(run_, source_, charge, text, what, name_, cost);
    if (outcome.counted_before)
        ++recognised_;
    else
        ++counted_;
}

std::string new_ledger_run_token() { return fmt::format("{:016x}{:016x}", os_random_u64(), os_random_u64()); }

}  // namespace dpbo
