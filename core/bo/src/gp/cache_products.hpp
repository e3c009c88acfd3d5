#pragma once
// The GP's cache of one query set gains one data point per BO step; its two products with the cache
// (the new column's correction and the mean) in one pass over it.
#include <cstddef>

namespace dpbo::gp::detail {

// t ← V a and u ← V b for the rows × columns column-major V (leading dimension `rows`), with a's
// entries `a_stride` apart and b's contiguous: V, the largest matrix of a prediction over many
// candidates, is read once instead of once per product. Summed over the columns in order, in every
// instruction-set clone alike (bit-identical on every CPU).
void two_products(const double* v, std::size_t rows, std::size_t columns, const double* a, std::size_t a_stride,
                  const double* b, double* t, double* u);

}  // namespace dpbo::gp::detail
