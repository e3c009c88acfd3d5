#include "few_column_solve.hpp"

#include <algorithm>

namespace dpbo::gp::detail {

namespace {

// Columns of T taken together: each pass over the rows below them reads eight columns of T and
// updates every right-hand side with all eight, so T is read once per solve.
constexpr std::size_t kPanel = 8;

// The rows below a full panel: b[i] -= Σ_c T(i, k0 + c) x_c for one right-hand side b, whose panel
// entries x are already solved. Summed as ((t0 x0 + t1 x1) + (t2 x2 + t3 x3)) + (... ) in every build.
#define DPBO_PANEL_UPDATE(b, x)                                                         \
    (b)[i] -= ((t0[i] * (x)[0] + t1[i] * (x)[1]) + (t2[i] * (x)[2] + t3[i] * (x)[3])) + \
              ((t4[i] * (x)[4] + t5[i] * (x)[5]) + (t6[i] * (x)[6] + t7[i] * (x)[7]))

// One clone per instruction set, chosen when the library loads (GCC's ifunc); the file is compiled
// with -ffp-contract=off (core/bo/CMakeLists.txt), so all of them round alike.
__attribute__((target_clones("avx512f", "avx2", "default"))) void solve(const double* triangle, std::size_t stride,
                                                                        std::size_t order, double* block,
                                                                        std::size_t columns) {
    for (std::size_t k0 = 0; k0 < order; k0 += kPanel) {
        const std::size_t end = std::min(order, k0 + kPanel);
        // The panel's own triangle, column by column.
        for (std::size_t j = 0; j < columns; ++j) {
            double* b = block + j * order;
            for (std::size_t c = k0; c < end; ++c) {
                const double x = b[c] / triangle[c + c * stride];
                b[c] = x;
                for (std::size_t r = c + 1; r < end; ++r) b[r] -= triangle[r + c * stride] * x;
            }
        }
        if (end == order) break;
        if (end - k0 < kPanel) {
            for (std::size_t j = 0; j < columns; ++j) {
                double* b = block + j * order;
                for (std::size_t c = k0; c < end; ++c) {
                    const double* t = triangle + c * stride;
                    const double x = b[c];
                    for (std::size_t i = end; i < order; ++i) b[i] -= t[i] * x;
                }
            }
            continue;
        }
        const double* t0 = triangle + k0 * stride;
        const double* t1 = t0 + stride;
        const double* t2 = t1 + stride;
        const double* t3 = t2 + stride;
        const double* t4 = t3 + stride;
        const double* t5 = t4 + stride;
        const double* t6 = t5 + stride;
        const double* t7 = t6 + stride;
        std::size_t j = 0;
        // Four right-hand sides a pass, then two, then one: each entry of T read serves them all.
        for (; j + 4 <= columns; j += 4) {
            double* b = block + j * order;
            double* d = b + order;
            double* e = d + order;
            double* f = e + order;
            double x[kPanel];
            double y[kPanel];
            double z[kPanel];
            double w[kPanel];
            std::copy(b + k0, b + end, x);
            std::copy(d + k0, d + end, y);
            std::copy(e + k0, e + end, z);
            std::copy(f + k0, f + end, w);
#pragma GCC ivdep
            for (std::size_t i = end; i < order; ++i) {
                DPBO_PANEL_UPDATE(b, x);
                DPBO_PANEL_UPDATE(d, y);
                DPBO_PANEL_UPDATE(e, z);
                DPBO_PANEL_UPDATE(f, w);
            }
        }
        for (; j + 2 <= columns; j += 2) {
            double* b = block + j * order;
            double* d = b + order;
            double x[kPanel];
            double y[kPanel];
            std::copy(b + k0, b + end, x);
            std::copy(d + k0, d + end, y);
#pragma GCC ivdep
            for (std::size_t i = end; i < order; ++i) {
                DPBO_PANEL_UPDATE(b, x);
                DPBO_PANEL_UPDATE(d, y);
            }
        }
        if (j < columns) {
            double* b = block + j * order;
            double x[kPanel];
            std::copy(b + k0, b + end, x);
#pragma GCC ivdep
            for (std::size_t i = end; i < order; ++i) DPBO_PANEL_UPDATE(b, x);
        }
    }
}

#undef DPBO_PANEL_UPDATE

}  // namespace

std::ptrdiff_t few_column_lower_solve(const double* triangle, std::size_t stride, std::size_t order, double* block,
                                      std::size_t columns) {
    for (std::size_t i = 0; i < order; ++i)
        if (triangle[i + i * stride] == 0.0) return static_cast<std::ptrdiff_t>(i) + 1;
    if (columns > 0) solve(triangle, stride, order, block, columns);
    return 0;
}

}  // namespace dpbo::gp::detail
