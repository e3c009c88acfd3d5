// Basic sequential composition of pure and approximate DP (Dwork & Roth 2014, Thm 3.16): releases
// that are (ε_i, δ_i)-DP compose to (Σ ε_i, Σ δ_i)-DP. A Laplace release of scale b on an L1
// sensitivity Δ₁ is (Δ₁/b)-DP, an exponential-mechanism selection is ε-DP as calibrated.
//
// The conversions are exact for that composed pair: every (E, D)-DP mechanism is dominated by the
// four-output mechanism of Kairouz, Oh & Viswanath (2015, the privacy region of (ε, δ)-DP), whose
// hockey-stick divergence at ε < E is D + (1 − D)(e^E − e^ε)/(1 + e^E) and at ε ≥ E is D. So
// delta_for_epsilon() is the smallest δ implied by (E, D) alone, and epsilon_for_delta() its inverse.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/parameters.hpp"
#include "dpbo/plugin.hpp"
#include "dpbo/privacy_statement.hpp"

namespace {

constexpr const char* kOwner = "accountant 'basic'";

// The (ε, δ) of one repetition of an accepted (already checked) event: its (ε, δ) view (a Laplace
// release's Δ/b comes rounded up, never below the true ε).
dpbo::ApproximateDp event_cost(const dpbo::PrivacyEvent& event) {
    const dpbo::ApproximateDp cost = *event.description().approximate_dp();
    if (!std::isfinite(cost.epsilon))
        throw dpbo::ValidationError(fmt::format("{}: event {} gives an infinite epsilon", kOwner, event.describe()));
    return cost;
}

class BasicAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() { return {}; }

    explicit BasicAccountant(const dpbo::ParameterSet&) {}
    BasicAccountant(const BasicAccountant& other)
        : epsilon_(other.epsilon_), delta_(other.delta_), releases_(other.releases_), events_(other.events_) {}

    // Every event stated as ε- or (ε, δ)-DP (built in: laplace, exponential, pure, approx), whatever its kind.
    dpbo::AcceptedEvents accepted_events() const override { return {{}, {dpbo::EventView::ApproximateDp}}; }

    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, kOwner);
        const dpbo::ApproximateDp cost = event_cost(event);
        const double r = static_cast<double>(event.repetitions);
        const double epsilon = epsilon_ + r * cost.epsilon;
        const double delta = delta_ + r * cost.delta;
        if (!std::isfinite(epsilon) || !(delta < 1.0)) {
            throw dpbo::ValidationError(fmt::format(
                "{}: composing {} gives epsilon = {}, delta = {}; basic composition then guarantees nothing", kOwner,
                event.describe(), epsilon, delta));
        }
        epsilon_ = epsilon;
        delta_ = delta;
        releases_ += event.repetitions;
        ++events_;
    }

    double delta_for_epsilon(double epsilon) const override {
        require_events("delta_for_epsilon()");
        if (!(epsilon >= 0.0))
            throw dpbo::ValidationError(
                fmt::format("{}: delta_for_epsilon({}): allowed: epsilon >= 0", kOwner, epsilon));
        if (epsilon >= epsilon_) return delta_;
        // (e^E − e^ε)/(1 + e^E) written as −expm1(ε − E)/(1 + e^−E): no overflow for large E.
        return delta_ + (1.0 - delta_) * (-std::expm1(epsilon - epsilon_)) / (1.0 + std::exp(-epsilon_));
    }

    double epsilon_for_delta(double delta) const override {
        require_events("epsilon_for_delta()");
        if (!(delta > 0.0 && delta < 1.0))
            throw dpbo::ValidationError(
                fmt::format("{}: epsilon_for_delta({}): allowed: delta in (0, 1)", kOwner, delta));
        if (delta < delta_) {
            throw dpbo::ValidationError(
                fmt::format("{}: the composition is ({}, {})-DP; no epsilon reaches delta = {} below its delta", kOwner,
                            epsilon_, delta_, delta));
        }
        const double reach = (delta - delta_) * (1.0 + std::exp(-epsilon_)) / (1.0 - delta_);
        double epsilon = reach >= 1.0 ? 0.0 : std::max(0.0, epsilon_ + std::log1p(-reach));
        // The closed form rounds; step up until the profile itself confirms the target.
        while (epsilon < epsilon_ && delta_for_epsilon(epsilon) > delta)
            epsilon = std::nextafter(epsilon, std::numeric_limits<double>::infinity());
        return std::min(epsilon, epsilon_);
    }

    dpbo::PrivacyStatement total() const override {
        require_events("total()");
        auto statement = delta_ == 0.0 ? dpbo::PrivacyStatement::pure_dp(epsilon_)
                                       : dpbo::PrivacyStatement::approx_dp(epsilon_, delta_);
        statement.mechanism = fmt::format(
            "basic composition of {} releases ({} events): epsilon = Σ r·ε = {}, delta = Σ r·δ = {} (Dwork & Roth "
            "2014, Thm 3.16)",
            releases_, events_, epsilon_, delta_);
        return statement;
    }

    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<BasicAccountant>(*this); }

private:
    void require_events(const char* operation) const {
        if (events_ == 0) {
            throw dpbo::RunError(fmt::format("{}: {} called with no events composed; compose at least one event first",
                                             kOwner, operation));
        }
    }

    double epsilon_ = 0.0;
    double delta_ = 0.0;
    std::size_t releases_ = 0;
    std::size_t events_ = 0;
};

}  // namespace

DPBO_PLUGIN(BasicAccountant, "basic", "1.0.0",
            "basic sequential composition of pure and approximate DP (Laplace, exponential mechanism, stated ε or "
            "(ε, δ)), with exact conversion of the composed pair",
            "Dwork & Roth 2014, Thm 3.16 (composition); Kairouz, Oh & Viswanath 2015 (the privacy region of (ε, δ)-DP)")
