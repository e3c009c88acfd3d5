#pragma once
// A mechanism's privacy loss as two functions of a threshold, and its discretisation onto a grid
// from them: the connect-the-dots distribution (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi
// 2022, Algorithm 1), whose δ(ε) is never below the mechanism's, and the privacy-buckets one with
// losses rounded down (Meiser & Mohammadi 2018), whose δ(ε) is never above it.
#include "grid_pld.hpp"

namespace dpbo::pld {

class LossProfile {
public:
    virtual ~LossProfile() = default;
    // The hockey-stick divergence H_{e^ε}(P ‖ Q) of the mechanism's pair of output distributions:
    // the δ at which it is (ε, δ)-DP.
    virtual double delta(double epsilon) const = 0;
    // P(L ≥ loss) for the privacy loss L = ln(P/Q)(Y), Y ~ P.
    virtual double survival(double loss) const = 0;
    // Losses between which the grid is laid: outside them is mass of at most the truncation bound.
    // Any range gives valid bounds (the discretisations put what lies outside on their side).
    virtual double grid_low() const = 0;
    virtual double grid_high() const = 0;

protected:
    LossProfile() = default;
    LossProfile(const LossProfile&) = default;
    LossProfile& operator=(const LossProfile&) = default;
};

GridPld discretise(const LossProfile& profile, double interval, Estimate estimate);

}  // namespace dpbo::pld
