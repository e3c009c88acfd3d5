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
// rate q ∈ (0, 1] (q = 1: no subsampling, symmetric). The pair (q·N(Δ, σ²) + (1−q)·N(0, σ²),
// N(0, σ²)) and its reverse dominate Poisson subsampling under add/remove-one neighbours and
// fixed-size sampling without replacement under replace-one neighbours (Zhu, Dong & Wang 2022,
// Thm. 10 and 11), with Δ the sensitivity under that relation.
PldPair subsampled_gaussian_pld(double noise_over_sensitivity, double sampling_rate, const Discretisation& grid);
// Laplace noise of scale b on a query of L1 sensitivity Δ, `scale_over_sensitivity` = b/Δ: its
// privacy loss ±Δ/b with δ(ε) = 1 − e^{ε/2 − Δ/(2b)} between (symmetric).
PldPair laplace_pld(double scale_over_sensitivity, const Discretisation& grid);
// A mechanism stated (ε, δ)-DP: the distribution that dominates every such mechanism, loss +∞
// with probability δ and ±ε otherwise, randomized response's (Kairouz, Oh & Viswanath 2015);
// δ = 0 for pure ε-DP. Losses are rounded up (pessimistic) or down (optimistic) onto the grid.
PldPair approximate_dp_pld(double epsilon, double delta, const Discretisation& grid);

}  // namespace dpbo::pld
