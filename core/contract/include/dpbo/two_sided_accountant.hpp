#pragma once
// An accountant that brackets its answer: beside the upper bound every accountant reports
// (epsilon_for_delta, delta_for_epsilon: never below the truth), a lower bound on the same
// quantity, so that a reader sees how far the reported figure may be from the tightest one the
// accountant's model allows (for a privacy-loss distribution on a grid: the optimistic and the
// pessimistic discretisation). Asked for with dpbo::capability<dpbo::TwoSidedAccountant>(accountant)
// (capability.hpp); an accountant that does not inherit it reports one bound only.
//
// Its destructor is defined in libdpbo (two_sided_accountant.cpp): the key function, so that the
// typeinfo dynamic_cast compares is the same on both sides of the plugin boundary.
#include <string_view>

namespace dpbo {

class TwoSidedAccountant {
public:
    virtual ~TwoSidedAccountant();
    static constexpr std::string_view capability_name = "TwoSidedAccountant";
    static constexpr std::string_view capability_doc = "a lower bound on ε(δ) and δ(ε) beside the upper bound";

    // An ε no larger than the smallest ε at which the composition is (ε, δ)-DP under the
    // accountant's model: epsilon_lower_for_delta(δ) ≤ epsilon_for_delta(δ). Never a claim of
    // privacy; it says how much an exact computation could at most gain.
    virtual double epsilon_lower_for_delta(double delta) const = 0;
    // A δ no larger than the smallest δ for which the composition is (ε, δ)-DP under the model:
    // delta_lower_for_epsilon(ε) ≤ delta_for_epsilon(ε).
    virtual double delta_lower_for_epsilon(double epsilon) const = 0;

protected:
    // Copying an interface would slice the accountant it belongs to.
    TwoSidedAccountant() = default;
    TwoSidedAccountant(const TwoSidedAccountant&) = default;
    TwoSidedAccountant& operator=(const TwoSidedAccountant&) = default;
};

}  // namespace dpbo
