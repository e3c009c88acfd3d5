#pragma once
// The RDP curve of a selection among repeated trials (RepeatAndSelectEvent), from the RDP curve of
// one trial: Papernot & Steinke 2022, Thm. 2 (K truncated negative binomial, logarithmic and
// geometric included) and Thm. 6 (K Poisson); a fixed k is k-fold composition; thresholded stopping
// over a pure ε-DP trial is 2ε-DP (Liu & Talwar 2019, Thm. 3.1), stated as RDP by
// min(2ε, α(2ε)²/2) (Bun & Steinke 2016, Prop. 3.3). Every value is rounded upward.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dpbo/privacy_event.hpp"
#include "rdp_conversion.hpp"

namespace dpbo::rdp {

class RdpCurve;

class SelectionCurve {
public:
    // Throws ValidationError naming the owner, the selection and the trial event this accountant
    // cannot compose as an RDP curve.
    SelectionCurve(const RepeatAndSelectEvent& selection, const std::string& owner, Conversion conversion);
    ~SelectionCurve();
    // ε'(α) of the whole selection, α > 1; +∞ where no bound holds.
    double at(double alpha) const;
    bool real_orders() const;
    // The trial's own RDP at α (memoised).
    double trial_at(double alpha) const;
    const RdpCurve& trial() const { return *trial_; }

private:
    double formula(double alpha) const;
    double poisson_delta_hat(double alpha) const;

    RepeatAndSelectEvent selection_;
    std::unique_ptr<RdpCurve> trial_;
    Conversion conversion_;
    double gamma_ = 1.0;
    double accounted_mean_ = 1.0;
    double tnb_constant_ = 0.0;  // (1 + η) min over λ̂ ≥ 1 of (1 − 1/λ̂)ε(λ̂) + log(1/γ)/λ̂
    mutable std::once_flag suffix_once_;
    mutable std::vector<double> suffix_orders_, suffix_least_;  // the grid above α and the least bound from it on
    mutable std::mutex memo_mutex_;
    mutable std::map<double, double> memo_;
};

// "Papernot & Steinke 2022, Thm. 2" and the like: the theorem the selection's curve comes from.
std::string selection_theorem(const RepeatAndSelectEvent& selection);

}  // namespace dpbo::rdp
