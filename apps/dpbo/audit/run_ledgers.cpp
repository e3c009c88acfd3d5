#include "run_ledgers.hpp"

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/module_call_guard.hpp"
#include "dpbo/random.hpp"

namespace dpbo::audit {

RunLedgers::RunLedgers(std::shared_ptr<const Accountant> accountant, PrivacyNoiseSource& noise, std::string owner,
                       std::string neighbouring, std::string protected_unit)
    : accountant_(std::move(accountant)),
      noise_(noise),
      owner_(std::move(owner)),
      neighbouring_(std::move(neighbouring)),
      protected_unit_(std::move(protected_unit)) {
    if (!accountant_) throw RunError(owner_ + ": the audit's ledgers were given no accountant");
}

PrivacyLedger& RunLedgers::next_run() {
    std::shared_ptr<Accountant> fresh = call_into_module(accountant_->describe_origin(), "starting an audit run", [&] {
        return std::shared_ptr<Accountant>(accountant_->clone());
    });
    current_.reset();
    current_.emplace(std::move(fresh), std::nullopt, noise_, owner_, PrivacyLedger::Log::Discard);
    current_->set_scope(neighbouring_, protected_unit_);
    return *current_;
}

}  // namespace dpbo::audit
