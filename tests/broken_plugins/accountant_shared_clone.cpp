// An accountant whose clones share the original's composition (a shallow copy): the privacy ledger
// tests each release on a clone before committing it, so such an accountant would charge every
// release twice or commit releases the budget refused. `dpbo check` must name the broken promise.
#include <memory>

#include <fmt/format.h>

#include <dpbo/accountant.hpp>
#include <dpbo/errors.hpp>
#include <dpbo/parameters.hpp>
#include <dpbo/plugin.hpp>

namespace {
class SharedCloneAccountant final : public dpbo::Accountant {
public:
    static dpbo::ParameterSchema schema() { return {}; }
    explicit SharedCloneAccountant(const dpbo::ParameterSet&) : epsilon_(std::make_shared<double>(0.0)) {}
    dpbo::AcceptedEvents accepted_events() const override { return {{"pure"}, {}}; }
    void compose(const dpbo::PrivacyEvent& event) override {
        check_event(event, "accountant 'shared-clone'");
        *epsilon_ += event.as<dpbo::PureDpEvent>()->epsilon * static_cast<double>(event.repetitions);
    }
    double delta_for_epsilon(double epsilon) const override { return epsilon >= *epsilon_ ? 0.0 : 1.0; }
    double epsilon_for_delta(double) const override { return *epsilon_; }
    dpbo::PrivacyStatement total() const override { return dpbo::PrivacyStatement::pure_dp(*epsilon_); }
    std::unique_ptr<dpbo::Accountant> clone() const override {
        auto copy = std::make_unique<SharedCloneAccountant>(dpbo::ParameterSet{});
        copy->epsilon_ = epsilon_;  // the defect: the composition is shared, not copied
        return copy;
    }

private:
    std::shared_ptr<double> epsilon_;
};
}  // namespace

DPBO_PLUGIN(SharedCloneAccountant, "shared-clone", "1.0.0", "pure-DP sum whose clones share the original's sum", "none")
