#include "grid_pld.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpbo::pld {

std::int64_t grid_index(double rounded_scaled_loss) {
    return static_cast<std::int64_t>(std::clamp(rounded_scaled_loss, -1e15, 1e15));
}

GridPld identity_pld(double interval) { return GridPld{interval, 0, {1.0}, 0.0, 0.0}; }

double delta_for_epsilon(const GridPld& pld, double epsilon) {
    if (std::isinf(epsilon) && epsilon > 0) return pld.infinity_mass;
    // From the largest loss down: the terms that matter most are added last, to the smallest sum.
    double finite = 0.0;
    for (std::size_t i = pld.probs.size(); i-- > 0;) {
        const double loss = pld.loss(i);
        if (loss <= epsilon) break;
        finite += pld.probs[i] * -std::expm1(epsilon - loss);
    }
    return pld.infinity_mass + finite;
}

double epsilon_for_delta(const GridPld& pld, double delta) {
    if (pld.infinity_mass > delta) return std::numeric_limits<double>::infinity();
    // δ(ε) = upper − e^ε·lower on each interval between grid losses, where upper is the mass above
    // ε (with +∞) and lower its mass under the other dataset (Σ p_L e^{−L}); δ decreases in ε, so
    // the answer lies in the first interval, from the top, whose solution is not below its bottom.
    double upper = pld.infinity_mass;
    double lower = 0.0;
    for (std::size_t i = pld.probs.size(); i-- > 0;) {
        const double loss = pld.loss(i);
        if (upper > delta && lower > 0.0 && std::log((upper - delta) / lower) >= loss)
            return std::max(0.0, std::log((upper - delta) / lower));
        upper += pld.probs[i];
        lower += pld.probs[i] * std::exp(-loss);
        if (upper >= delta && lower == 0.0) return std::max(0.0, loss);
    }
    if (upper <= lower + delta) return 0.0;
    return std::max(0.0, std::log((upper - delta) / lower));
}

void truncate_tails(GridPld& pld, double tail_mass, Estimate estimate) {
    std::vector<double>& probs = pld.probs;
    for (double& p : probs)
        if (p < 0.0) p = 0.0;
    const double half = 0.5 * tail_mass;
    std::size_t left = 0;
    double left_mass = 0.0;
    while (left + 1 < probs.size() && left_mass + probs[left] <= half) left_mass += probs[left++];
    std::size_t right = probs.size();
    double right_mass = 0.0;
    while (right - 1 > left && right_mass + probs[right - 1] <= half) right_mass += probs[--right];
    std::vector<double> kept(probs.begin() + static_cast<std::ptrdiff_t>(left),
                             probs.begin() + static_cast<std::ptrdiff_t>(right));
    if (estimate == Estimate::Pessimistic) {
        kept.front() += left_mass;
        pld.infinity_mass += right_mass;
    } else {
        kept.back() += right_mass;
    }
    pld.lower_index += static_cast<std::int64_t>(left);
    if (kept.size() > kMaxGridPoints) {
        double top_mass = 0.0;
        for (std::size_t i = kMaxGridPoints; i < kept.size(); ++i) top_mass += kept[i];
        kept.resize(kMaxGridPoints);
        (estimate == Estimate::Pessimistic ? pld.infinity_mass : kept.back()) += top_mass;
    }
    probs = std::move(kept);
}

}  // namespace dpbo::pld
