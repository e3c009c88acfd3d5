#pragma once
// The GP's cache of one query set, one query point per row: its triangular solve from the right when
// it is built, and when it gains one data point (a BO step) its two products with the cache (the new
// column's correction and the mean) in one pass over it.
#include <cstddef>

namespace dpbo::gp::detail {

// t ← V a and u ← V b for the rows × columns column-major V (leading dimension `rows`), with a's
// entries `a_stride` apart and b's contiguous: V, the largest matrix of a prediction over many
// candidates, is read once instead of once per product. Summed over the columns in order, in every
// instruction-set clone alike (the same bits on every CPU).
void two_products(const double* v, std::size_t rows, std::size_t columns, const double* a, std::size_t a_stride,
                  const double* b, double* t, double* u);

// X ← X L⁻ᵀ in place for the rows × order column-major X (leading dimension `rows`) and the
// order × order lower-triangular L (leading dimension `stride`), whose diagonal has no zero: row by
// row the forward substitution x_j = (b_j − Σ_{i<j} x_i L_ji) / L_jj, the sum over i in order,
// vectorised across rows (every query point of a large cache at once), in every clone alike.
void solve_rows_from_right(const double* lower, std::size_t stride, std::size_t order, double* x, std::size_t rows);

}  // namespace dpbo::gp::detail
