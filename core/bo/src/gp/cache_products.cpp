#include "cache_products.hpp"

#include <algorithm>

namespace dpbo::gp::detail {

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

}  // namespace dpbo::gp::detail
