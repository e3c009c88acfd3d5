#include "loss_profile.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dpbo::pld {
namespace {

// The top grid index: the profile's, or lower where the grid would exceed kMaxGridPoints (`extra`:
// the points the discretisation adds above it). Either discretisation stays valid with a lower top.
std::int64_t grid_top(const LossProfile& profile, double interval, std::int64_t low, std::int64_t extra) {
    const double wanted = std::ceil(profile.grid_high() / interval);
    const double largest = static_cast<double>(low) + static_cast<double>(kMaxGridPoints) - static_cast<double>(extra);
    return std::max(low, grid_index(std::min(wanted, largest)));
}

// Connect the dots: the distribution on the grid losses ε_1 < … < ε_n (and +∞) whose δ(ε), a
// function of e^ε, is the chord through the points (e^{ε_i}, δ(ε_i)). δ is convex in e^ε, so the
// chords lie above it between the points; below ε_1 the chord runs to (0, 1), above ε_n the mass
// left, δ(ε_n), is put at +∞. Its masses are the chords' slope changes (DGKKM 2022, Algorithm 1).
GridPld connect_the_dots(const LossProfile& profile, double interval) {
    const std::int64_t low = grid_index(std::floor(profile.grid_low() / interval));
    const std::int64_t high = grid_top(profile, interval, low, 1);
    const auto n = static_cast<std::size_t>(high - low + 1);
    std::vector<double> deltas(n);
    for (std::size_t i = 0; i < n; ++i)
        deltas[i] =
            std::clamp(profile.delta(static_cast<double>(low + static_cast<std::int64_t>(i)) * interval), 0.0, 1.0);
    // δ(ε) is non-increasing; where rounding breaks that, the left value is raised (never a value
    // lowered), so every δ_i stays at least what was computed.
    for (std::size_t i = n - 1; i-- > 0;) deltas[i] = std::max(deltas[i], deltas[i + 1]);
    GridPld pld;
    pld.interval = interval;
    pld.lower_index = low;
    pld.infinity_mass = deltas.back();
    if (n == 1) {
        pld.probs = {1.0 - deltas[0]};
        return pld;
    }
    const double growth = std::exp(interval);
    const double gap = std::expm1(interval);
    pld.probs.assign(n, 0.0);
    pld.probs[0] = 1.0 - deltas[0] + (deltas[1] - deltas[0]) / gap;
    for (std::size_t i = 1; i + 1 < n; ++i)
        pld.probs[i] = ((deltas[i + 1] - deltas[i]) - growth * (deltas[i] - deltas[i - 1])) / gap;
    pld.probs[n - 1] = (deltas[n - 1] - deltas[n - 2]) / std::expm1(-interval);
    for (double& p : pld.probs) p = std::max(0.0, p);
    return pld;
}

// Privacy buckets, rounded down: the mass with loss in [kΔ, (k+1)Δ) at kΔ, the mass above the grid
// at its top, the mass below it dropped. Every loss moves down, so δ(ε) can only fall.
GridPld buckets_rounded_down(const LossProfile& profile, double interval) {
    const std::int64_t low = grid_index(std::floor(profile.grid_low() / interval));
    const std::int64_t high = grid_top(profile, interval, low, 2);
    const auto n = static_cast<std::size_t>(high - low + 2);
    std::vector<double> survival(n);
    for (std::size_t i = 0; i < n; ++i)
        survival[i] =
            std::clamp(profile.survival(static_cast<double>(low + static_cast<std::int64_t>(i)) * interval), 0.0, 1.0);
    GridPld pld;
    pld.interval = interval;
    pld.lower_index = low;
    pld.infinity_mass = 0.0;
    pld.probs.assign(n, 0.0);
    for (std::size_t i = 0; i + 1 < n; ++i) pld.probs[i] = std::max(0.0, survival[i] - survival[i + 1]);
    pld.probs[n - 1] = survival[n - 1];
    return pld;
}

}  // namespace

GridPld discretise(const LossProfile& profile, double interval, Estimate estimate) {
    return estimate == Estimate::Pessimistic ? connect_the_dots(profile, interval)
                                             : buckets_rounded_down(profile, interval);
}

}  // namespace dpbo::pld
