#pragma once
// Privacy accountants: compose typed privacy events, convert to (ε, δ). Each accountant accepts the
// event kinds it can account exactly and refuses the others by name, listing the ones it accepts.
#include <memory>
#include <string>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

class Accountant : public Module {
public:
    ~Accountant() override;
    static constexpr ModuleKind static_kind = ModuleKind::Accountant;
    ModuleKind kind() const final { return static_kind; }

    virtual std::vector<PrivacyEventKind> accepted_kinds() const = 0;
    bool accepts(PrivacyEventKind kind) const;
    // Composes `event` (validated first). Throws ValidationError naming the event's kind and the
    // accepted ones when the kind is not accepted, or the field when it is invalid; a refused event
    // leaves the composition unchanged.
    virtual void compose(const PrivacyEvent& event) = 0;
    // The smallest δ such that the composition is (ε, δ)-DP.
    virtual double delta_for_epsilon(double epsilon) const = 0;
    // An ε such that the composition is (ε, δ)-DP; never one whose δ exceeds the target.
    virtual double epsilon_for_delta(double delta) const = 0;
    // The composed guarantee in the accountant's native notion.
    virtual PrivacyStatement total() const = 0;
    // An independent copy of the composition so far, with the same settings: the privacy ledger
    // composes a release on a copy to test it against the budget before committing to it.
    virtual std::unique_ptr<Accountant> clone() const = 0;

protected:
    // For compose(): validates `event` and refuses a kind accepted_kinds() does not list, naming
    // `owner` ("accountant 'gdp'"), the kind and the accepted kinds.
    void check_event(const PrivacyEvent& event, const std::string& owner) const;
};

}  // namespace dpbo
