#pragma once
// Privacy accountants: compose privacy events, convert to (ε, δ). An accountant composes an event
// through a view it uses (a μ-GDP parameter, an (ε, δ) statement, an RDP curve: privacy_event.hpp),
// or because it knows the event's kind by name and computes it with its own numerics; every other
// event it refuses by name, saying what it needs and what the event offers.
#include <memory>
#include <string>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

// What an accountant composes: the kinds it knows by name, and the views through which it composes
// an event of any other kind.
struct AcceptedEvents {
    std::vector<std::string> kinds;
    std::vector<EventView> views;
};

class Accountant : public Module {
public:
    ~Accountant() override;
    static constexpr ModuleKind static_kind = ModuleKind::Accountant;
    ModuleKind kind() const final { return static_kind; }

    virtual AcceptedEvents accepted_events() const = 0;
    // True when the event's kind is one it knows or the event offers a view it uses.
    bool accepts(const PrivacyEvent& event) const;
    // The kinds it accepts by name, then the built-in kinds that offer a view it uses:
    // "gaussian, gdp" for the gdp accountant.
    std::vector<std::string> accepted_kind_names() const;
    // Empty when accepted; otherwise why not, beginning "cannot account a 'laplace' event": what it
    // composes, what the event offers, and "it accepts: gaussian, gdp".
    std::string refusal(const PrivacyEvent& event) const;

    // Composes `event` (validated first). Throws ValidationError naming the event's kind, what the
    // accountant needs and the kinds it accepts when it cannot compose it, or the field when it is
    // invalid; a refused event leaves the composition unchanged.
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
    // For compose(): refuses an event accepts() rejects, as "`owner`: refusal(event)", then validates it.
    void check_event(const PrivacyEvent& event, const std::string& owner) const;
};

}  // namespace dpbo
