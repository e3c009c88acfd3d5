// The zCDP accountant: ρ_i-zCDP releases compose to (Σ ρ_i)-zCDP (Bun & Steinke 2016, Lemma 2.3), and
// ρ-zCDP is (ρ + 2√(ρ log(1/δ)), δ)-DP for every δ > 0 (Prop. 1.3). It composes the "zcdp" events of
// this example, which it knows by name, and every event offering a μ-GDP parameter: μ-GDP is the
// Gaussian mechanism with Δ/σ = μ (Dong, Roth & Su 2022, Thm. 2.7), which is μ²/2-zCDP (Bun &
// Steinke 2016, Prop. 1.6). Any other event it refuses by name (Accountant::check_event).
//
// δ(ε) inverts Prop. 1.3 exactly (δ = exp(−(ε − ρ)²/(4ρ)) for ε > ρ), so δ(ε(δ)) = δ. Tighter
// conversions exist (e.g. Canonne, Kamath & Steinke 2020, Prop. 12, through the RDP curve ρα, which
// the shipped rdp accountant applies to these very events); this one is the closed form users check.
#include <dpbo/accountant.hpp>
#include <dpbo/errors.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy_statement.hpp>

#include <cmath>
#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <string>

#include "zcdp_event.hpp"

namespace {

constexpr const char* kOwner = "accountant 'zcdp-accountant'";

double up(double x) { return std::nextafter(x, std::numeric_limits<double>::infinity()); }
double down(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }

// ρ of one repetition of an accepted, validated event, never below the true value.
double event_rho(const dpbo::PrivacyEvent& event) {
    // By name and parameter, not by type: the event may come from another plugin's copy of the class.
    if (event.kind() == zcdp::ZcdpEvent::kind_name) return event.description().number("rho");
    const double mu = *event.description().gdp_mu();
    return up(up(mu * mu) / 2.0);
}

class ZcdpAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("delta", {.fallback = 1e-5,
                              .lower = 0.0,
                              .upper = 1.0,
                              .lower_inclusive = false,
                              .upper_inclusive = false,
                              .doc = "δ at which total() reports the (ε, δ) equivalent"});
        return schema;
    }

    explicit ZcdpAccountant(const dpbo::ParameterSet& parameters) : report_delta_(parameters.real("delta")) {}
    // The composition and settings, not the module's origin (modules are not copyable; clone() copies).
    ZcdpAccountant(const ZcdpAccountant& other)
        : report_delta_(other.report_delta_), rho_(other.rho_), releases_(other.releases_), events_(other.events_) {}

    dpbo::AcceptedEvents accepted_events() const override {
        return {{std::string(zcdp::ZcdpEvent::kind_name)}, {dpbo::EventView::GaussianDp}};
    }

    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, kOwner);  // refuses what it cannot compose, by name; then validates
        const double rho = up(rho_ + up(static_cast<double>(event.repetitions) * event_rho(event)));
        if (!std::isfinite(rho))
            throw dpbo::ValidationError(std::string(kOwner) + ": composing " + event.describe() + " gives rho = inf");
        rho_ = rho;
        releases_ += event.repetitions;
        ++events_;
    }

    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<ZcdpAccountant>(*this); }

    // Bun & Steinke 2016, Prop. 1.3, each operation rounded so that ε is never too small.
    double epsilon_for_delta(double delta) const override {
        require_events("epsilon_for_delta()");
        if (!(delta > 0.0 && delta < 1.0))
            throw dpbo::ValidationError(std::string(kOwner) + ": delta = " + dpbo::event_number(delta) +
                                        "; allowed: a number in (0, 1)");
        return up(rho_ + up(2.0 * up(std::sqrt(up(rho_ * up(-std::log(delta)))))));
    }

    // The δ at which Prop. 1.3 gives exactly ε: exp(−(ε − ρ)²/(4ρ)); 1 for ε ≤ ρ (nothing claimed).
    double delta_for_epsilon(double epsilon) const override {
        require_events("delta_for_epsilon()");
        if (!(epsilon >= 0.0))
            throw dpbo::ValidationError(std::string(kOwner) + ": epsilon = " + dpbo::event_number(epsilon) +
                                        "; allowed: a number >= 0");
        if (epsilon <= rho_) return 1.0;
        const double gap = down(epsilon - rho_);
        return std::min(1.0, up(std::exp(-down(down(gap * gap) / up(4.0 * rho_)))));
    }

    dpbo::PrivacyStatement total() const override {
        require_events("total()");
        dpbo::PrivacyStatement statement;
        statement.notion = dpbo::PrivacyNotion::Renyi;
        for (const double alpha : {2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0})
            statement.rdp_curve.emplace_back(alpha, up(rho_ * alpha));
        const double epsilon = epsilon_for_delta(report_delta_);
        statement.equivalent_epsilon_delta = {{epsilon, report_delta_}};
        statement.mechanism =
            "zCDP composition of " + std::to_string(releases_) + " releases (" + std::to_string(events_) +
            " events): rho = Σ r·ρ = " + dpbo::event_number(rho_) +
            " (Bun & Steinke 2016, Lemma 2.3); epsilon = rho + 2√(rho log(1/delta)) = " + dpbo::event_number(epsilon) +
            " at delta = " + dpbo::event_number(report_delta_) + " (Prop. 1.3)";
        return statement;
    }

private:
    void require_events(const char* operation) const {
        if (events_ == 0)
            throw dpbo::RunError(std::string(kOwner) + ": " + operation +
                                 " called with no events composed; compose at least one event first");
    }

    double report_delta_;
    double rho_ = 0.0;
    std::size_t releases_ = 0;
    std::size_t events_ = 0;
};

}  // namespace

// Module names are one namespace across kinds: "zcdp" is the event kind's.
DPBO_PLUGIN(ZcdpAccountant, "zcdp-accountant", "1.0.0",
            "ρ-zCDP composition of 'zcdp' and μ-GDP events (ρ adds), with (ε, δ) by Bun & Steinke's Prop. 1.3",
            "Bun & Steinke 2016, Concentrated Differential Privacy (TCC), Lemma 2.3 (composition), Prop. 1.3 "
            "(conversion), Prop. 1.6 (Gaussian)")
