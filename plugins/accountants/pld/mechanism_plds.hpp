#pragma once
// The privacy-loss distributions of the mechanisms the pld accountant knows, on its grid. A
// mechanism whose two directions differ (a subsampled Gaussian: removing a record is not adding
// one) has two, remove and add; δ(ε) of the composition is the larger of the two composed
// directions' (Zhu, Dong & Wang 2022, dominating pairs). A symmetric one has one.
#include <optional>

#include "grid_pld.hpp"

namespace dpbo::pld {

struct Discretisation {
    double interval = 1e-4;            // value_discretization_interval
    double log_mass_truncation = -50;  // ln of the noise mass left off a continuous mechanism's grid
    Estimate estimate = Estimate::Pessimistic;
};

struct PldPair {
    GridPld remove;
    std::optional<GridPld> add;  // empty: the same as remove
};

// Gaussian noise of standard deviation `noise_over_sensitivity` (σ/Δ) on a query subsampled at
// rate q ∈ (0, 1] (q = 1: no subsampling, symmetric), Poisson sampling under add/remove-one
// neighbours: the pair (q·N(Δ, σ²) + (1−q)·N(0, σ²), N(0, σ²)) dominates removing a record and its
// reverse adding one (Zhu, Dong & Wang 2022). For given neighbours every release goes the same way,
// so each direction composes on its own and δ(ε) is the larger of the two.
PldPair subsampled_gaussian_pld(double noise_over_sensitivity, double sampling_rate, const Discretisation& grid);
// The same noise on fixed-size lots drawn without replacement at rate q = m/n < 1, replace-one
// neighbours (Δ the replace-one sensitivity). One release is C_q(f)-DP with f the Gaussian's trade-off
// function: the convex hull of min{f_q, f_q⁻¹}, f_q = q·f + (1 − q)·Id (Dong, Roth & Su 2022, Sec. 4,
// subsampling). Its privacy profile is the larger of the two directions' above at every ε, but the
// directions may alternate from one release to the next, so composing each apart would understate
// the cost. The upper bound is therefore one symmetric distribution, connect-the-dots through
// max(δ_remove(ε), δ_add(ε)), which dominates the hull; the lower bound composes the two directions
// apart (each dominated by the hull, so their larger δ never exceeds the hull's composition).
PldPair without_replacement_gaussian_pld(double noise_over_sensitivity, double sampling_rate,
                                         const Discretisation& grid);
// Laplace noise of scale b on a query of L1 sensitivity Δ, `scale_over_sensitivity` = b/Δ: its
// privacy loss ±Δ/b with δ(ε) = 1 − e^{ε/2 − Δ/(2b)} between (symmetric).
PldPair laplace_pld(double scale_over_sensitivity, const Discretisation& grid);
// A mechanism stated (ε, δ)-DP: the distribution that dominates every such mechanism, loss +∞
// with probability δ and ±ε otherwise, randomized response's (Kairouz, Oh & Viswanath 2015);
// δ = 0 for pure ε-DP. Losses are rounded up (pessimistic) or down (optimistic) onto the grid.
PldPair approximate_dp_pld(double epsilon, double delta, const Discretisation& grid);

}  // namespace dpbo::pld
