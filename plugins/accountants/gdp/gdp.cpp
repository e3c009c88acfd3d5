// μ-GDP accountant: μ_t-GDP releases compose to sqrt(Σ μ_t²)-GDP exactly (Dong, Roth & Su 2022,
// Cor. 3.3), and μ-GDP converts to (ε, δ(ε))-DP for every ε (Cor. 2.13).
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"

namespace {

constexpr const char* kOwner = "accountant 'gdp'";

// The μ of one repetition of an accepted (already checked) event: its μ-GDP view (a Gaussian's Δ/σ
// comes rounded up, never below the true μ).
double event_mu(const dpbo::PrivacyEvent& event) {
    const double mu = *event.description().gdp_mu();
    if (!std::isfinite(mu))
        throw dpbo::ValidationError(fmt::format("{}: event {} gives an infinite mu", kOwner, event.describe()));
    return mu;
}

class GdpAccountant final : public dpbo::Accountant {
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

    explicit GdpAccountant(const dpbo::ParameterSet& parameters) : report_delta_(parameters.real("delta")) {}

    GdpAccountant(const GdpAccountant& other)
        : report_delta_(other.report_delta_), groups_(other.groups_), releases_(other.releases_) {}

    // Every event stated as μ-GDP (built in: gaussian, gdp), whatever its kind.
    dpbo::AcceptedEvents accepted_events() const override { return {{}, {dpbo::EventView::GaussianDp}}; }

    void compose(const dpbo::PrivacyEvent& event) override {
        // No GDP theorem bounds the best of a random number of trials: say so by name.
        if (event.kind() == dpbo::RepeatAndSelectEvent::kind_name)
            throw dpbo::ValidationError(fmt::format(
                "{}: cannot account a 'repeat-and-select' event: no theorem states a selection among repeated "
                "trials as μ-GDP; use --accountant rdp (Papernot & Steinke 2022) or basic (pure trials)",
                kOwner));
        check_event(event, kOwner);
        const double mu = event_mu(event);
        // Releases at the same μ (a run's T steps, charged one by one) form one group of r
        // repetitions contributing √r·μ, exactly as if composed at once: summing r equal squares
        // would round differently.
        if (!groups_.empty() && groups_.back().mu == mu) {
            groups_.back().repetitions += event.repetitions;
        } else {
            groups_.push_back({mu, event.repetitions});
        }
        releases_ += event.repetitions;
    }

    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<GdpAccountant>(*this); }

    double delta_for_epsilon(double epsilon) const override {
        return dpbo::gdp_delta(composed_mu("delta_for_epsilon()"), epsilon);
    }

    double epsilon_for_delta(double delta) const override {
        return dpbo::gdp_epsilon(composed_mu("epsilon_for_delta()"), delta);
    }

    dpbo::PrivacyStatement total() const override {
        const double mu = composed_mu("total()");
        auto statement = dpbo::PrivacyStatement::gaussian_dp(mu);
        statement.equivalent_epsilon_delta = {{dpbo::gdp_epsilon(mu, report_delta_), report_delta_}};
        statement.mechanism = fmt::format(
            "μ-GDP composition of {} releases (groups of equal μ: {}): μ = sqrt(Σ r·μ²) = {} (Dong, Roth & "
            "Su 2022, Cor. 3.3)",
            releases_, groups_.size(), mu);
        return statement;
    }

private:
    double composed_mu(const char* operation) const {
        if (groups_.empty()) {
            throw dpbo::RunError(fmt::format("{}: {} called with no events composed; compose at least one event first",
                                             kOwner, operation));
        }
        std::vector<double> contributions;
        for (const Group& group : groups_)
            contributions.push_back(std::sqrt(static_cast<double>(group.repetitions)) * group.mu);
        return dpbo::compose_gdp(contributions);
    }

    struct Group {
        double mu;
        std::size_t repetitions;
    };

    double report_delta_;
    std::vector<Group> groups_;
    std::size_t releases_ = 0;
};

}  // namespace

DPBO_PLUGIN(GdpAccountant, "gdp", "1.0.0", "μ-GDP composition of Gaussian releases, with (ε, δ) conversion",
            "Dong, Roth & Su 2022, Cor. 3.3 (composition) and Cor. 2.13 (conversion)")
