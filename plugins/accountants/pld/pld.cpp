// Privacy-loss-distribution accountant: each release's privacy-loss distribution on a grid,
// composed by FFT convolution, read as δ(ε) and ε(δ) from the composed distribution (Koskela,
// Jälkö & Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022). Two discretisations of
// every release bracket the answer: the pessimistic (connect the dots) is the upper bound it
// reports as its guarantee, the optimistic (losses rounded down) the lower bound it reports beside
// it (dpbo::TwoSidedAccountant).
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"
#include "dpbo/two_sided_accountant.hpp"
#include "event_mechanism.hpp"
#include "pld_composition_state.hpp"

namespace {

constexpr const char* kOwner = "accountant 'pld'";

// Floating-point sums over a grid of up to ~10⁶ entries round at about 1e-13 of the result; the
// reported bounds are moved outward by more than that, so neither crosses to the other's side.
constexpr double kRoundingMargin = 1e-11;

class PldAccountant final : public dpbo::Accountant, public dpbo::TwoSidedAccountant {
public:
    static dpbo::ParameterSchema schema() {
        dpbo::ParameterSchema schema;
        schema.real("delta", {.fallback = 1e-5,
                              .lower = 0.0,
                              .upper = 1.0,
                              .lower_inclusive = false,
                              .upper_inclusive = false,
                              .doc = "δ at which total() reports the (ε, δ) guarantee"});
        schema.real(
            "value_discretization_interval",
            {.fallback = 1e-4,
             .lower = 1e-7,
             .upper = 0.1,
             .doc = "grid step of the privacy losses: smaller is tighter and slower (dp_accounting's default)"});
        schema.real("tail_mass_truncation",
                    {.fallback = 1e-15,
                     .lower = 0.0,
                     .upper = 1e-6,
                     .doc = "probability mass each composition step may cut from the tails; the upper bound moves "
                            "it to +∞, the lower bound drops it"});
        schema.real("log_mass_truncation_bound",
                    {.fallback = -50.0,
                     .lower = -700.0,
                     .upper = -5.0,
                     .doc = "ln of the noise mass outside a Gaussian release's grid (accounted as +∞ loss in the "
                            "upper bound)"});
        return schema;
    }

    explicit PldAccountant(const dpbo::ParameterSet& parameters)
        : report_delta_(parameters.real("delta")),
          state_(dpbo::pld::GridSettings{parameters.real("value_discretization_interval"),
                                         parameters.real("tail_mass_truncation"),
                                         parameters.real("log_mass_truncation_bound")}) {}

    PldAccountant(const PldAccountant& other)
        : dpbo::Accountant(),
          dpbo::TwoSidedAccountant(other),
          report_delta_(other.report_delta_),
          state_(other.state_),
          relation_(other.relation_) {}

    // The kinds with a tight distribution of their own (event_mechanism.cpp), any μ-GDP event as the
    // Gaussian mechanism it is, and any (ε, δ)-DP event through the distribution dominating them all.
    dpbo::AcceptedEvents accepted_events() const override {
        return {dpbo::pld::named_event_kinds(), {dpbo::EventView::GaussianDp, dpbo::EventView::ApproximateDp}};
    }

    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, kOwner);
        const dpbo::pld::EventMechanism mechanism = dpbo::pld::event_mechanism(event, relation_, kOwner);
        state_.add(mechanism.mechanism, mechanism.times);
        relation_ = mechanism.relation;
    }

    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<PldAccountant>(*this); }

    double delta_for_epsilon(double epsilon) const override {
        require_events("delta_for_epsilon()");
        return std::min(1.0,
                        state_.delta_for_epsilon(epsilon, dpbo::pld::Estimate::Pessimistic) * (1.0 + kRoundingMargin));
    }
    double epsilon_for_delta(double delta) const override {
        require_events("epsilon_for_delta()");
        check_delta(delta, "epsilon_for_delta()");
        return state_.epsilon_for_delta(delta, dpbo::pld::Estimate::Pessimistic) * (1.0 + kRoundingMargin);
    }
    double delta_lower_for_epsilon(double epsilon) const override {
        require_events("delta_lower_for_epsilon()");
        return state_.delta_for_epsilon(epsilon, dpbo::pld::Estimate::Optimistic) * (1.0 - kRoundingMargin);
    }
    double epsilon_lower_for_delta(double delta) const override {
        require_events("epsilon_lower_for_delta()");
        check_delta(delta, "epsilon_lower_for_delta()");
        return state_.epsilon_for_delta(delta, dpbo::pld::Estimate::Optimistic) * (1.0 - kRoundingMargin);
    }

    dpbo::PrivacyStatement total() const override {
        require_events("total()");
        const double upper = epsilon_for_delta(report_delta_);
        if (!std::isfinite(upper))
            throw dpbo::ValidationError(fmt::format(
                "{}: no finite ε reaches delta = {}: the composition puts probability {} on an unbounded loss (its "
                "approx events' δ, composed); set accountant.delta (dpbo account: --delta) above it",
                kOwner, report_delta_,
                state_.delta_for_epsilon(std::numeric_limits<double>::infinity(), dpbo::pld::Estimate::Pessimistic)));
        const double lower = epsilon_lower_for_delta(report_delta_);
        auto statement = dpbo::PrivacyStatement::approx_dp(upper, report_delta_);
        statement.equivalent_epsilon_delta = {{upper, report_delta_}};
        statement.neighbouring = dpbo::pld::relation_text(relation_);
        statement.protected_unit = "one record";
        statement.released = {fmt::format("{} releases", state_.releases())};
        statement.assumptions = {
            "each event's parameters (noise, sensitivity, sampling rate, steps) are those of the mechanism that ran",
            "Poisson subsampling includes each record independently with probability q (add/remove-one "
            "neighbours); fixed-size batches are drawn uniformly without replacement (replace-one neighbours)"};
        statement.mechanism = fmt::format(
            "privacy-loss distribution, pessimistic discretisation (upper bound): ε = {} at δ = {} for {} releases "
            "({} distinct mechanisms) composed by FFT on a grid of step {}; the optimistic discretisation gives the "
            "lower bound ε ≥ {} (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022)",
            upper, report_delta_, state_.releases(), state_.mechanisms(), interval(), lower);
        return statement;
    }

private:
    double interval() const { return state_.settings().interval; }
    void require_events(const char* operation) const {
        if (state_.empty())
            throw dpbo::RunError(fmt::format("{}: {} called with no events composed; compose at least one event first",
                                             kOwner, operation));
    }
    static void check_delta(double delta, const char* operation) {
        if (!(delta > 0.0 && delta < 1.0))
            throw dpbo::ValidationError(fmt::format("{}: {}: delta = {} must lie in (0, 1)", kOwner, operation, delta));
    }

    double report_delta_;
    dpbo::pld::PldCompositionState state_;
    dpbo::pld::Relation relation_ = dpbo::pld::Relation::Any;
};

}  // namespace

DPBO_PLUGIN(PldAccountant, "pld", "1.0.0",
            "privacy-loss-distribution composition on a grid (FFT), with upper and lower bounds on ε(δ) and δ(ε)",
            "Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022 (connect the dots); Koskela, Jälkö & Honkela 2020 "
            "(FFT composition); Zhu, Dong & Wang 2022 (dominating pairs of subsampled mechanisms); Balle & Wang 2018 "
            "(Gaussian)")
