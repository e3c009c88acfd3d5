// A deliberately wrong accountant, for `dpbo account --compare` only: it composes Gaussian releases
// as μ-GDP like `gdp` but reports half the true ε (and the δ of that halved claim), so its upper
// bound falls below pld's lower bound and the comparison must flag it
// (tests/cli/cli_account_compare_test.cpp). Never installed.
#include <cmath>
#include <memory>
#include <vector>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy/gaussian_dp.hpp"
#include "dpbo/privacy_statement.hpp"

namespace {

class UnderstatingAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit UnderstatingAccountant(const dpbo::ParameterSet&) {}
    // A module is not copyable; a clone copies the composition only.
    UnderstatingAccountant(const UnderstatingAccountant& other) : mu_squared_(other.mu_squared_) {}

    dpbo::AcceptedEvents accepted_events() const override { return {{}, {dpbo::EventView::GaussianDp}}; }
    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, "accountant 'understating'");
        const double mu = *event.description().gdp_mu();
        mu_squared_ += static_cast<double>(event.repetitions) * mu * mu;
    }
    double delta_for_epsilon(double epsilon) const override { return dpbo::gdp_delta(mu(), 2.0 * epsilon); }
    double epsilon_for_delta(double delta) const override { return 0.5 * dpbo::gdp_epsilon(mu(), delta); }
    dpbo::PrivacyStatement total() const override { return dpbo::PrivacyStatement::gaussian_dp(0.5 * mu()); }
    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<UnderstatingAccountant>(*this); }

private:
    double mu() const {
        if (mu_squared_ <= 0.0) throw dpbo::RunError("accountant 'understating': nothing composed");
        return std::sqrt(mu_squared_);
    }
    double mu_squared_ = 0.0;
};

}  // namespace

DPBO_PLUGIN(UnderstatingAccountant, "understating", "1.0.0",
            "test only: composes Gaussian releases as μ-GDP and reports half the true ε (deliberately wrong)",
            "none: the known positive of dpbo account --compare")
