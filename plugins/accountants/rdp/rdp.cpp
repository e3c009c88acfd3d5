// Rényi-DP accountant: composes Gaussian, GDP, Laplace and subsampled-Gaussian events (and any event
// offering an RDP curve) as RDP curves
// (added order by order, Mironov 2017, Prop. 1) and converts to (ε, δ) by the classic or the tight
// conversion, minimised over orders (rdp_conversion.hpp).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"
#include "rdp_conversion.hpp"
#include "rdp_curve.hpp"
#include "selection_curve.hpp"

namespace {

constexpr const char* kOwner = "accountant 'rdp'";

class RdpAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("delta", {.fallback = 1e-5,
                              .lower = 0.0,
                              .upper = 1.0,
                              .lower_inclusive = false,
                              .upper_inclusive = false,
                              .doc = "δ at which total() reports the (ε, δ) equivalent"});
        schema.choice("conversion", {"tight", "classic"}, "tight",
                      "RDP to (ε, δ): tight = Canonne, Kamath & Steinke 2020, Prop. 12 (Balle et al. 2020, Thm. 21); "
                      "classic = Mironov 2017, Prop. 3");
        return schema;
    }

    explicit RdpAccountant(const dpbo::ParameterSet& parameters)
        : report_delta_(parameters.real("delta")),
          conversion_(parameters.text("conversion") == "classic" ? dpbo::rdp::Conversion::Classic
                                                                 : dpbo::rdp::Conversion::Tight),
          curve_(conversion_) {}

    RdpAccountant(const RdpAccountant& other)
        : report_delta_(other.report_delta_), conversion_(other.conversion_), curve_(other.curve_) {}

    // The built-in kinds it computes with its own numerics (rdp_curve.cpp), and any other event through
    // its RDP curve.
    dpbo::AcceptedEvents accepted_events() const override {
        return {{std::string(dpbo::GaussianEvent::kind_name), std::string(dpbo::GdpEvent::kind_name),
                 std::string(dpbo::LaplaceEvent::kind_name), std::string(dpbo::SubsampledGaussianEvent::kind_name),
                 std::string(dpbo::RepeatAndSelectEvent::kind_name)},
                {dpbo::EventView::Renyi}};
    }

    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, kOwner);
        curve_.add(event, kOwner);  // refuses a mismatched neighbouring relation; unchanged on refusal
    }

    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<RdpAccountant>(*this); }

    double delta_for_epsilon(double epsilon) const override {
        require_events("delta_for_epsilon()");
        return best_delta(epsilon).value;
    }

    double epsilon_for_delta(double delta) const override {
        require_events("epsilon_for_delta()");
        if (!(delta > 0.0 && delta < 1.0))
            throw dpbo::ValidationError(fmt::format("{}: delta = {} must lie in (0, 1)", kOwner, delta));
        return best_epsilon(delta).value;
    }

    dpbo::PrivacyStatement total() const override {
        require_events("total()");
        dpbo::PrivacyStatement statement;
        statement.notion = dpbo::PrivacyNotion::Renyi;
        std::vector<double> orders;
        if (curve_.real_orders()) orders = {1.25, 1.5, 1.75};
        for (double a = 2; a <= 64; a += 1) orders.push_back(a);
        for (const double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
        const auto best = best_epsilon(report_delta_);
        orders.push_back(best.order);
        for (const double a : orders) statement.rdp_curve.emplace_back(a, curve_.at(a));
        statement.equivalent_epsilon_delta = {{best.value, report_delta_}};
        statement.neighbouring = curve_.neighbouring();
        statement.protected_unit = "one record";
        statement.released = {fmt::format("{} releases", curve_.releases())};
        statement.assumptions = {
            "each event's parameters (noise, sensitivity, sampling rate, steps) are those of the mechanism that ran",
            "Poisson subsampling includes each record independently with probability q (add/remove-one "
            "neighbours); fixed-size batches are drawn uniformly without replacement (replace-one neighbours)"};
        statement.mechanism = fmt::format(
            "RDP composition of {} releases ({} events); (ε, δ) by the {} conversion ({}), minimised over orders: "
            "ε = {} at δ = {} attained at order α = {}",
            curve_.releases(), curve_.events().size(), dpbo::rdp::to_string(conversion_), reference(), best.value,
            report_delta_, best.order);
        for (const dpbo::PrivacyEvent& event : curve_.events())
            if (const auto* selection = event.as<dpbo::RepeatAndSelectEvent>())
                statement.mechanism +=
                    fmt::format("; a selection among trials ({}) by {}, releasing only the selected trial",
                                selection->count.describe(), dpbo::rdp::selection_theorem(*selection));
        return statement;
    }

private:
    const char* reference() const {
        return conversion_ == dpbo::rdp::Conversion::Classic
                   ? "Mironov 2017, Prop. 3"
                   : "Canonne, Kamath & Steinke 2020, Prop. 12; Balle et al. 2020, Thm. 21";
    }
    void require_events(const char* operation) const {
        if (curve_.empty())
            throw dpbo::RunError(fmt::format("{}: {} called with no events composed; compose at least one event first",
                                             kOwner, operation));
    }
    dpbo::rdp::OrderChoice best_epsilon(double delta) const {
        return dpbo::rdp::minimise_over_orders(
            [&](double alpha) { return dpbo::rdp::epsilon_at_order(curve_.at(alpha), alpha, delta, conversion_); },
            curve_.real_orders());
    }
    dpbo::rdp::OrderChoice best_delta(double epsilon) const {
        return dpbo::rdp::minimise_over_orders(
            [&](double alpha) { return dpbo::rdp::delta_at_order(curve_.at(alpha), alpha, epsilon, conversion_); },
            curve_.real_orders());
    }

    double report_delta_;
    dpbo::rdp::Conversion conversion_;
    dpbo::rdp::RdpCurve curve_;
};

}  // namespace

DPBO_PLUGIN(RdpAccountant, "rdp", "1.0.0",
            "Rényi-DP composition of Gaussian, Laplace and subsampled-Gaussian releases and of selections among "
            "repeated trials, with (ε, δ) conversion",
            "Mironov 2017 (RDP; Gaussian, Laplace); Mironov, Talwar & Zhang 2019 (Poisson-subsampled Gaussian); "
            "Wang, Balle & Kasiviswanathan 2019, Thm. 9 and 27 (without replacement); Canonne, Kamath & Steinke 2020, "
            "Prop. 12 (conversion); Papernot & Steinke 2022, Thm. 2 and 6 (selection among trials)")
