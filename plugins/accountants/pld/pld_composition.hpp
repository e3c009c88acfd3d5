#pragma once
// Composing privacy-loss distributions: the loss of two independent releases is the sum of their
// losses, so the distribution of a composition is the convolution of the distributions (Sommer,
// Meiser & Mohammadi 2019), with +∞ absorbing.
#include <cstddef>

#include "grid_pld.hpp"

namespace dpbo::pld {

// a composed with b (same grid), tails of mass up to tail_mass truncated on the estimate's side.
GridPld compose(const GridPld& a, const GridPld& b, Estimate estimate, double tail_mass);
// `pld` composed with itself `times` ≥ 1 times: its spectrum raised to the power `times` by
// repeated squaring, on a window that a Chernoff bound shows holds all but tail_mass of the result;
// that mass goes to +∞ (pessimistic) or to excess_mass (optimistic).
GridPld self_compose(const GridPld& pld, std::size_t times, Estimate estimate, double tail_mass);

}  // namespace dpbo::pld
