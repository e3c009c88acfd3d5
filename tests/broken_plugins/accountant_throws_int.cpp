// A well-formed accountant whose compose() throws an int: `dpbo account` and every run through its
// ledger must end naming the module, its file and what it was doing.
#include <memory>
#include <vector>

#include <dpbo/accountant.hpp>
#include <dpbo/event_kind.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>
#include <dpbo/privacy_statement.hpp>

namespace {
class ThrowingAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    ThrowingAccountant() = default;
    explicit ThrowingAccountant(const dpbo::ParameterSet&) {}
    // Every event: every built-in kind by name, every other kind through any view.
    dpbo::AcceptedEvents accepted_events() const override {
        dpbo::AcceptedEvents all{{}, dpbo::all_event_views()};
        for (const auto& kind : dpbo::builtin_event_kinds()) all.kinds.push_back(kind.name);
        return all;
    }
    void compose(const dpbo::PrivacyEvent&) override { throw 3; }
    double delta_for_epsilon(double) const override { return 1.0; }
    double epsilon_for_delta(double) const override { return 0.0; }
    dpbo::PrivacyStatement total() const override { return dpbo::PrivacyStatement::pure_dp(1.0); }
    std::unique_ptr<dpbo::Accountant> clone() const override { return std::make_unique<ThrowingAccountant>(); }
};
}  // namespace

DPBO_PLUGIN(ThrowingAccountant, "int-throwing-accountant", "1.0.0", "its compose throws an int", "none")
