#include "cache_products.hpp"

#include <algorithm>
#include <cstring>

namespace dpbo::gp::detail {

namespace {

// Rows solved together: eight vectors of eight doubles (GCC's vector extension; one AVX-512
// register each, two AVX2 ones, four SSE2 ones in the baseline clone), eight independent sums in
// flight per column of L, and a block's solved columns (64 rows × order) stay in the L1 cache.
constexpr std::size_t kLanes = 8;
constexpr std::size_t kVectors = 8;
constexpr std::size_t kBlockRows = kLanes * kVectors;
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));

}  // namespace

// Compiled with -ffp-contract=off (core/bo/CMakeLists.txt), so no clone fuses a multiply into an add.
__attribute__((target_clones("avx512f", "avx2", "default"))) void two_products(const double* v, std::size_t rows,
                                                                               std::size_t columns, const double* a,
                                                                               std::size_t a_stride, const double* b,
                                                                               double* t, double* u) {
    // Blocks of rows whose two sums stay in the L1 cache while every column passes over them.
    constexpr std::size_t kBlock = 512;
    for (std::size_t i0 = 0; i0 < rows; i0 += kBlock) {
        const std::size_t i1 = std::min(rows, i0 + kBlock);
        std::fill(t + i0, t + i1, 0.0);
        std::fill(u + i0, u + i1, 0.0);
        for (std::size_t k = 0; k < columns; ++k) {
            const double* column = v + k * rows;
            const double x = a[k * a_stride];
            const double y = b[k];
#pragma GCC ivdep
            for (std::size_t i = i0; i < i1; ++i) {
                t[i] += column[i] * x;
                u[i] += column[i] * y;
            }
        }
    }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void solve_rows_from_right(const double* lower,
                                                                                        std::size_t stride,
                                                                                        std::size_t order, double* x,
                                                                                        std::size_t rows) {
    const std::size_t full = rows - rows % kBlockRows;
    for (std::size_t i0 = 0; i0 < full; i0 += kBlockRows) {
        for (std::size_t j = 0; j < order; ++j) {
            Lanes sum[kVectors];
            double* target = x + j * rows + i0;
            for (std::size_t v = 0; v < kVectors; ++v) std::memcpy(&sum[v], target + v * kLanes, sizeof(Lanes));
            for (std::size_t i = 0; i < j; ++i) {
                const double factor = lower[j + i * stride];
                const double* solved = x + i * rows + i0;
                for (std::size_t v = 0; v < kVectors; ++v) {
                    Lanes known;
                    std::memcpy(&known, solved + v * kLanes, sizeof(Lanes));
                    sum[v] -= known * factor;
                }
            }
            const double diagonal = lower[j + j * stride];
            for (std::size_t v = 0; v < kVectors; ++v) {
                const Lanes value = sum[v] / diagonal;
                std::memcpy(target + v * kLanes, &value, sizeof(Lanes));
            }
        }
    }
    // The rows past the last full block, one at a time, in the same order of operations.
    for (std::size_t r = full; r < rows; ++r) {
        for (std::size_t j = 0; j < order; ++j) {
            double sum = x[r + j * rows];
            for (std::size_t i = 0; i < j; ++i) sum -= x[r + i * rows] * lower[j + i * stride];
            x[r + j * rows] = sum / lower[j + j * stride];
        }
    }
}

}  // namespace dpbo::gp::detail
