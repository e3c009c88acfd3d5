#pragma once
// Privacy accountants: compose events, convert to (ε, δ). Each accountant accepts the event kinds
// it can account exactly and refuses the others by name.
#include <map>
#include <string>
#include <vector>

#include "dpbo/module.hpp"
#include "dpbo/privacy_statement.hpp"

namespace dpbo {

struct PrivacyEvent {
    std::string kind;                       // "gdp", "gaussian", ...
    std::map<std::string, double> values;   // e.g. {"mu": 0.5} or {"sigma": 2, "sensitivity": 1}
    std::size_t repetitions = 1;
};

class Accountant : public Module {
public:
    ~Accountant() override;
    static constexpr ModuleKind static_kind = ModuleKind::Accountant;
    ModuleKind kind() const final { return static_kind; }

    virtual std::vector<std::string> event_kinds() const = 0;
    // Throws ValidationError naming the event kind or the missing/invalid value.
    virtual void compose(const PrivacyEvent& event) = 0;
    // The smallest δ such that the composition is (ε, δ)-DP.
    virtual double delta_for_epsilon(double epsilon) const = 0;
    // An ε such that the composition is (ε, δ)-DP; never one whose δ exceeds the target.
    virtual double epsilon_for_delta(double delta) const = 0;
    // The composed guarantee in the accountant's native notion.
    virtual PrivacyStatement total() const = 0;
};

}  // namespace dpbo
