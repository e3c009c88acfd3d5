#include "selection_curve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "rdp_curve.hpp"

namespace dpbo::rdp {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
double up(double x) { return std::nextafter(x, kInfinity); }
double down(double x) { return std::nextafter(x, -kInfinity); }

using Family = TrialCount::Family;

bool thresholded(const RepeatAndSelectEvent& s) {
    return s.release == RepeatAndSelectEvent::Release::FirstAboveThreshold;
}

// E[K] of the distribution drawn with γ (TrialCount::gamma() errs low, so its mean may exceed the
// stated one by a hair): the larger of the two, rounded up with the evaluation's few ulps.
double accounted_mean(const TrialCount& count, double gamma) {
    if (count.family != Family::TruncatedNegativeBinomial || gamma >= 1.0) return count.mean;
    const double log_gamma = std::log(gamma);
    const double mean = count.eta == 0.0 ? (1.0 - gamma) / (gamma * -log_gamma)
                                         : count.eta * (1.0 - gamma) / (gamma * -std::expm1(count.eta * log_gamma));
    return std::max(count.mean, mean * (1.0 + 1e-12));
}

}  // namespace

SelectionCurve::SelectionCurve(const RepeatAndSelectEvent& selection, const std::string& owner, Conversion conversion)
    : selection_(selection), trial_(std::make_unique<RdpCurve>()), conversion_(conversion) {
    if (thresholded(selection_)) return;  // stated through approximate_dp (pure 2ε)
    for (const PrivacyEvent& event : selection_.trial) {
        const bool own = event.as<GaussianEvent>() || event.as<GdpEvent>() || event.as<LaplaceEvent>() ||
                         event.as<SubsampledGaussianEvent>() || event.as<RepeatAndSelectEvent>();
        if (!own && !event.description().offers(EventView::Renyi))
            throw ValidationError(fmt::format(
                "{}: event 'repeat-and-select' is refused: its trial holds a '{}' event, which has no RDP curve "
                "(gaussian, gdp, laplace, subsampled-gaussian or a kind offering rdp_epsilon); account a pure or "
                "(ε, δ) trial with --accountant basic",
                owner, event.kind()));
        trial_->add(event, owner);
    }
    if (selection_.count.family == Family::TruncatedNegativeBinomial) {
        gamma_ = selection_.count.gamma();
        accounted_mean_ = accounted_mean(selection_.count, gamma_);
        // Thm. 2's constant: minimised over λ̂ on the accountant's order grid, and λ̂ = 1, where the
        // first term vanishes (the trial's ε(1) is finite wherever its curve is).
        const double log_inverse_gamma = up(-std::log(gamma_));
        const auto at_order = [&](double order) {
            const double eps = trial_at(order);
            if (!std::isfinite(eps)) return kInfinity;
            return up(up(up(1.0 - 1.0 / order) * eps) + up(log_inverse_gamma / order));
        };
        const double best = std::min(log_inverse_gamma, minimise_over_orders(at_order, real_orders()).value);
        tnb_constant_ = up(up(1.0 + selection_.count.eta) * best);
    } else {
        accounted_mean_ = selection_.count.mean;
    }
}

SelectionCurve::~SelectionCurve() = default;

bool SelectionCurve::real_orders() const { return thresholded(selection_) || trial_->real_orders(); }

double SelectionCurve::trial_at(double alpha) const {
    {
        const std::lock_guard lock(memo_mutex_);
        if (const auto it = memo_.find(alpha); it != memo_.end()) return it->second;
    }
    const double value = trial_->at(alpha);
    const std::lock_guard lock(memo_mutex_);
    memo_.emplace(alpha, value);
    return value;
}

// δ̂ of Thm. 6: the trial is (ε̂, δ̂)-DP at ε̂ = log(1 + 1/(λ − 1)) (rounded down, which only raises
// δ̂), δ̂ by this accountant's conversion minimised over its orders (refined per λ: μ·δ̂ multiplies
// any slack by E[K]).
double SelectionCurve::poisson_delta_hat(double alpha) const {
    const double epsilon_hat = down(std::log1p(1.0 / (alpha - 1.0)));
    return minimise_over_orders(
               [&](double order) { return delta_at_order(trial_at(order), order, epsilon_hat, conversion_); },
               trial_->real_orders())
        .value;
}

double SelectionCurve::formula(double alpha) const {
    if (thresholded(selection_)) {
        const double epsilon = selection_.approximate_dp()->epsilon;  // 2ε, validated pure
        return std::min(epsilon, up(up(alpha * up(epsilon * epsilon)) / 2.0));
    }
    const double eps = trial_at(alpha);
    if (!std::isfinite(eps)) return kInfinity;
    const TrialCount& count = selection_.count;
    const double log_mean_term = up(up(std::log(accounted_mean_)) / down(alpha - 1.0));
    switch (count.family) {
        case Family::Fixed:
            return up(count.mean * eps);
        case Family::TruncatedNegativeBinomial:
            return up(up(eps + tnb_constant_) + log_mean_term);
        case Family::Poisson: {
            const double delta_hat = poisson_delta_hat(alpha);
            return up(up(eps + up(count.mean * delta_hat)) + log_mean_term);
        }
    }
    return kInfinity;
}

// RDP is non-decreasing in the order, so a bound at a larger order bounds a smaller one
// (dp_accounting's `_compute_rdp_repeat_and_select` applies the same over its grid): the least of
// the formula at α and at every order of a fixed grid above α (1.05 growing by 50 % to 2^16, whole
// orders only when the trial's curve is), computed once. The grid is coarse on purpose: it can only
// lower a bound, never raise one, and each of its orders costs a trial evaluation.
double SelectionCurve::at(double alpha) const {
    // Thm. 6's bound is applied order by order, as dp_accounting does: its δ̂ makes every grid order
    // cost a minimisation of its own.
    if (selection_.count.family == Family::Poisson) return formula(alpha);
    std::call_once(suffix_once_, [&] {
        std::vector<double> grid;
        for (double g = 1.05; g < 65536.0; g *= 1.5) {
            const double order = real_orders() ? g : std::max(2.0, std::ceil(g));
            if (grid.empty() || order > grid.back()) grid.push_back(order);
        }
        std::vector<double> least(grid.size());
        double running = kInfinity;
        for (std::size_t i = grid.size(); i-- > 0;) {
            running = std::min(running, formula(grid[i]));
            least[i] = running;
        }
        suffix_orders_ = std::move(grid);
        suffix_least_ = std::move(least);
    });
    double best = formula(alpha);
    const auto above = std::lower_bound(suffix_orders_.begin(), suffix_orders_.end(), alpha);
    if (above != suffix_orders_.end()) best = std::min(best, suffix_least_[above - suffix_orders_.begin()]);
    return best;
}

std::string selection_theorem(const RepeatAndSelectEvent& selection) {
    if (thresholded(selection)) return "Liu & Talwar 2019, Thm. 3.1 (2ε), as RDP by Bun & Steinke 2016, Prop. 3.3";
    switch (selection.count.family) {
        case Family::Fixed:
            return "composition of k trials (Mironov 2017, Prop. 1)";
        case Family::TruncatedNegativeBinomial:
            return "Papernot & Steinke 2022, Thm. 2";
        case Family::Poisson:
            return "Papernot & Steinke 2022, Thm. 6";
    }
    return {};
}

}  // namespace dpbo::rdp
