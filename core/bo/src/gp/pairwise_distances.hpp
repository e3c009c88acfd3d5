#pragma once
// Squared distances between two sets of points in few dimensions, from the differences themselves.
#include <cstddef>

namespace dpbo::gp::detail {

// out[i + j·rows] ← Σ_k (a[i + k·rows] − b[k + j·dims])² for i < rows, j < columns: `a` holds one
// point per row (rows × dims, column-major), `b` one point per column (dims × columns), both already
// divided by the length-scales. Each entry is summed over k in order, in every instruction-set clone,
// so a run gives the same bits on every CPU.
void squared_distances_by_differences(const double* a, std::size_t rows, const double* b, std::size_t columns,
                                      std::size_t dims, double* out);

}  // namespace dpbo::gp::detail
