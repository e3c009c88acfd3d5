#pragma once
// B ← T⁻¹ B for a lower-triangular T and a B of few columns, without LAPACK.
//
// Why our own: an acquisition search scores DIRECT's centres one DIRECT iteration at a time — about
// five points on Rosenbrock-10 — and each batch is a triangular solve against the whole n × n
// factor. OpenBLAS's dtrsm copies the factor into packed panels on every call, which for so few
// right-hand sides costs as much as the arithmetic; this routine reads the factor in place, eight
// of its columns at a time for up to four right-hand sides, and is faster for up to kFewColumns
// right-hand sides (`dpbo_bench_gp --solve-floor` times both at n = 200 and 1 000). With more,
// LAPACK's blocked solve catches up, and at large n wins.
//
// The same rounding on every machine: each entry's update is written out in a fixed order, vectors
// run across rows (never across a sum), and the file is compiled without contracting a·b + c into
// fused multiply-adds, so the AVX-512, AVX2 and baseline builds of the routine (chosen at run time)
// give identical bits.
#include <cstddef>

namespace dpbo::gp::detail {

// Columns up to which few_column_lower_solve is used instead of LAPACK's dtrtrs.
constexpr std::size_t kFewColumns = 8;

// block ← T⁻¹ block for the order × order lower-triangular T at `triangle` (column-major, leading
// dimension `stride`) and the order × columns `block` (column-major, leading dimension order).
// Returns 0, or as LAPACK's dtrtrs the 1-based index of the first zero on T's diagonal (the block
// then untouched).
std::ptrdiff_t few_column_lower_solve(const double* triangle, std::size_t stride, std::size_t order, double* block,
                                      std::size_t columns);

}  // namespace dpbo::gp::detail
