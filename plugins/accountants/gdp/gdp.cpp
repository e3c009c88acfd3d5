// μ-GDP accountant: μ_t-GDP releases compose to sqrt(Σ μ_t²)-GDP exactly (Dong, Roth & Su 2022,
// Cor. 3.3), and μ-GDP converts to (ε, δ(ε))-DP for every ε (Cor. 2.13).
#include <cmath>
#include <cstddef>
#include <map>
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

// Every key must be one the kind defines: an extra key (say a sampling rate) would change the
// guarantee in a way this accountant cannot account, so ignoring it would overstate privacy.
void refuse_unknown_keys(const dpbo::PrivacyEvent& event, const std::vector<std::string>& known) {
    for (const auto& [key, value] : event.values) {
        bool is_known = false;
        for (const auto& name : known) is_known = is_known || name == key;
        if (!is_known) {
            throw dpbo::ValidationError(fmt::format(
                "{}: event kind '{}' has unknown value '{}' = {}; allowed: {}", kOwner, event.kind,
                key, value, fmt::join(known, ", ")));
        }
    }
}

double positive_value(const dpbo::PrivacyEvent& event, const std::string& key) {
    const auto it = event.values.find(key);
    if (it == event.values.end()) {
        throw dpbo::ValidationError(fmt::format(
            "{}: event kind '{}' needs value '{}' (a finite number > 0)", kOwner, event.kind, key));
    }
    if (!std::isfinite(it->second) || it->second <= 0.0) {
        throw dpbo::ValidationError(fmt::format(
            "{}: event kind '{}' has '{}' = {}; allowed: a finite number > 0", kOwner, event.kind,
            key, it->second));
    }
    return it->second;
}

// The μ of one repetition of the event.
double event_mu(const dpbo::PrivacyEvent& event) {
    if (event.kind == "gdp") {
        refuse_unknown_keys(event, {"mu"});
        return positive_value(event, "mu");
    }
    if (event.kind == "gaussian") {
        refuse_unknown_keys(event, {"sigma", "sensitivity"});
        const double sigma = positive_value(event, "sigma");
        const double sensitivity = positive_value(event, "sensitivity");
        // Gaussian noise of standard deviation σ on an L2-sensitivity-Δ query is (Δ/σ)-GDP.
        const double mu = sensitivity / sigma;
        if (!std::isfinite(mu)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: event kind 'gaussian' with sensitivity = {} and sigma = {} gives an infinite mu",
                kOwner, sensitivity, sigma));
        }
        return mu;
    }
    throw dpbo::ValidationError(fmt::format(
        "{}: event kind '{}' is not supported; allowed: gdp (value mu), gaussian (values sigma, "
        "sensitivity)",
        kOwner, event.kind));
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

    explicit GdpAccountant(const dpbo::ParameterSet& parameters)
        : report_delta_(parameters.real("delta")) {}

    std::vector<std::string> event_kinds() const override { return {"gdp", "gaussian"}; }

    void compose(const dpbo::PrivacyEvent& event) override {
        const double mu = event_mu(event);
        if (event.repetitions == 0) {
            throw dpbo::ValidationError(fmt::format(
                "{}: event kind '{}' has repetitions = 0; allowed: an integer >= 1", kOwner,
                event.kind));
        }
        // r repetitions of μ-GDP contribute r·μ² = (√r·μ)², so compose_gdp sees one entry each.
        contributions_.push_back(std::sqrt(static_cast<double>(event.repetitions)) * mu);
        releases_ += event.repetitions;
    }

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
            "μ-GDP composition of {} releases (events: {}): μ = sqrt(Σ r·μ²) = {} (Dong, Roth & "
            "Su 2022, Cor. 3.3)",
            releases_, contributions_.size(), mu);
        return statement;
    }

private:
    double composed_mu(const char* operation) const {
        if (contributions_.empty()) {
            throw dpbo::RunError(fmt::format(
                "{}: {} called with no events composed; compose at least one event first", kOwner,
                operation));
        }
        return dpbo::compose_gdp(contributions_);
    }

    double report_delta_;
    std::vector<double> contributions_;
    std::size_t releases_ = 0;
};

}  // namespace

DPBO_PLUGIN(GdpAccountant, "gdp", "1.0.0",
            "μ-GDP composition of Gaussian releases, with (ε, δ) conversion",
            "Dong, Roth & Su 2022, Cor. 3.3 (composition) and Cor. 2.13 (conversion)")
