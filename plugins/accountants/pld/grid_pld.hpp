#pragma once
// A privacy-loss distribution on a grid: probability probs[i] at the loss (lower_index + i)·interval,
// and infinity_mass at +∞ (the outcomes only one of the neighbouring datasets can produce). Its
// hockey-stick divergence δ(ε) = infinity_mass + Σ_{L > ε} p_L (1 − e^{ε−L}) is the δ at which the
// mechanism it describes is (ε, δ)-DP (Dwork & Rothblum 2016; Sommer, Meiser & Mohammadi 2019).
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpbo::pld {

// Which side of the truth a discretised distribution lies on: a pessimistic one's δ(ε) is never
// below the mechanism's, an optimistic one's never above it. Every rounding step (the grid, the
// truncated tails) follows it.
enum class Estimate { Pessimistic, Optimistic };

// The most grid points one distribution holds (32 MiB of doubles): beyond it the losses above the
// grid are put at +∞ (pessimistic) or at its top (optimistic), valid bounds that only lose tightness
// where noise is so small that the loss spans thousands of units.
constexpr std::size_t kMaxGridPoints = std::size_t{1} << 22;

// A grid index from a loss already divided by the interval and rounded, clamped to ±10¹⁵ so that no
// conversion or sum of indices overflows (a loss that far out is beyond every grid anyway).
std::int64_t grid_index(double rounded_scaled_loss);

struct GridPld {
    double interval = 1e-4;
    std::int64_t lower_index = 0;
    std::vector<double> probs{1.0};
    double infinity_mass = 0.0;
    // Optimistic estimates only: mass that may sit at a higher loss than the true distribution puts
    // it (a circular convolution's wrapped tail), so δ(ε) may be overstated by at most this much.
    double excess_mass = 0.0;

    double loss(std::size_t i) const {
        return static_cast<double>(lower_index + static_cast<std::int64_t>(i)) * interval;
    }
};

// The distribution of a release that reveals nothing: all mass at loss 0.
GridPld identity_pld(double interval);

// δ(ε) of the distribution as it stands (no rounding added).
double delta_for_epsilon(const GridPld& pld, double epsilon);
// The smallest ε ≥ 0 with δ(ε) ≤ δ; +∞ when infinity_mass > δ.
double epsilon_for_delta(const GridPld& pld, double delta);

// Removes the longest prefix and suffix of probs whose masses are each at most tail_mass / 2, and
// negative entries (the rounding of a floating-point FFT), then cuts the top to kMaxGridPoints. Pessimistic: the prefix's mass moves up
// to the first entry kept and the suffix's to +∞; optimistic: the prefix is dropped and the
// suffix's mass moves down to the last entry kept. Either way the estimate keeps its side.
void truncate_tails(GridPld& pld, double tail_mass, Estimate estimate);

}  // namespace dpbo::pld
