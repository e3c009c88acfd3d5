#include "few_column_solve.hpp"

#include <algorithm>

namespace dpbo::gp::detail {

namespace {

// Columns of T taken together: each pass over the rows below them reads eight columns of T and
// updates every right-hand side with all eight, so T is read once per solve.
constexpr std::size_t kPanel = 8;

// The rows begin..end below a full panel of T's columns t[0..7], for W right-hand sides b[w] whose
// panel entries x[w] are solved: b[w][i] -= Σ_c t[c][i] x[w][c], summed as
// ((t0 x0 + t1 x1) + (t2 x2 + t3 x3)) + ((t4 x4 + t5 x5) + (t6 x6 + t7 x7)) in every build. Inlined
// into each instruction set's clone of solve(), where W is a constant and the loop over w unrolls.
template <std::size_t W>
[[gnu::always_inline]] inline void update_below(const double* const (&t)[kPanel], double* const (&b)[W],
                                                const double (&x)[W][kPanel], std::size_t begin, std::size_t end) {
#pragma GCC ivdep
    for (std::size_t i = begin; i < end; ++i) {
        for (std::size_t w = 0; w < W; ++w) {
            b[w][i] -= ((t[0][i] * x[w][0] + t[1][i] * x[w][1]) + (t[2][i] * x[w][2] + t[3][i] * x[w][3])) +
                       ((t[4][i] * x[w][4] + t[5][i] * x[w][5]) + (t[6][i] * x[w][6] + t[7][i] * x[w][7]));
        }
    }
}

// W right-hand sides from column j on, past the full panel starting at k0: each entry of T read
// serves all W.
template <std::size_t W>
[[gnu::always_inline]] inline void panel_pass(const double* const (&t)[kPanel], double* block, std::size_t order,
                                              std::size_t j, std::size_t k0) {
    double* b[W];
    double x[W][kPanel];
    for (std::size_t w = 0; w < W; ++w) {
        b[w] = block + (j + w) * order;
        std::copy(b[w] + k0, b[w] + k0 + kPanel, x[w]);
    }
    update_below<W>(t, b, x, k0 + kPanel, order);
}

// Right-hand sides whose substitutions inside a panel run side by side, one per vector lane.
constexpr std::size_t kLanes = 4;
using Lanes = double __attribute__((vector_size(kLanes * sizeof(double))));

// Rows begin..end of `count` ≤ kLanes right-hand sides (column w at b + w·order) against the panel's
// own triangle, column by column: x_c = b_c / t_cc, then b_r −= t_rc x_c below it. Each
// right-hand side alone is a chain of divisions, each waiting on the one before (a fifth of a solve
// at n = 1 000, and more at n = 200, went to that wait when they ran one after another); here the
// rows are gathered one vector of right-hand sides per row, so the chains share every division and
// multiplication. Lane by lane these are the scalar operations in the same order: the same bits.
[[gnu::always_inline]] inline void panel_triangle(const double* triangle, std::size_t stride, std::size_t begin,
                                                  std::size_t end, double* b, std::size_t order, std::size_t count) {
    Lanes rows[kPanel] = {};  // lanes past `count` solve zeros, which are never written back
    const std::size_t height = end - begin;
    for (std::size_t r = 0; r < height; ++r) {
        for (std::size_t w = 0; w < count; ++w) rows[r][w] = b[w * order + begin + r];
    }
    for (std::size_t c = 0; c < height; ++c) {
        const double pivot = triangle[(begin + c) + (begin + c) * stride];
        const Lanes x = rows[c] / Lanes{pivot, pivot, pivot, pivot};
        rows[c] = x;
        for (std::size_t r = c + 1; r < height; ++r) {
            const double t = triangle[(begin + r) + (begin + c) * stride];
            rows[r] -= Lanes{t, t, t, t} * x;
        }
    }
    for (std::size_t r = 0; r < height; ++r)
        for (std::size_t w = 0; w < count; ++w) b[w * order + begin + r] = rows[r][w];
}

// One clone per instruction set, chosen when the library loads (GCC's ifunc); the file is compiled
// with -ffp-contract=off (core/bo/CMakeLists.txt), so all of them round alike.
__attribute__((target_clones("avx512f", "avx2", "default"))) void solve(const double* triangle, std::size_t stride,
                                                                        std::size_t order, double* block,
                                                                        std::size_t columns) {
    for (std::size_t k0 = 0; k0 < order; k0 += kPanel) {
        const std::size_t end = std::min(order, k0 + kPanel);
        for (std::size_t j = 0; j < columns; j += kLanes) {
            const std::size_t count = std::min(kLanes, columns - j);
            panel_triangle(triangle, stride, k0, end, block + j * order, order, count);
        }
        // Only the last panel can be shorter than kPanel, and no rows lie below the last.
        if (end == order) break;
        const double* t[kPanel];
        for (std::size_t c = 0; c < kPanel; ++c) t[c] = triangle + (k0 + c) * stride;
        // Four right-hand sides a pass, then two, then one.
        std::size_t j = 0;
        for (; j + 4 <= columns; j += 4) panel_pass<4>(t, block, order, j, k0);
        for (; j + 2 <= columns; j += 2) panel_pass<2>(t, block, order, j, k0);
        if (j < columns) panel_pass<1>(t, block, order, j, k0);
    }
}

}  // namespace

std::ptrdiff_t few_column_lower_solve(const double* triangle, std::size_t stride, std::size_t order, double* block,
                                      std::size_t columns) {
    for (std::size_t i = 0; i < order; ++i)
        if (triangle[i + i * stride] == 0.0) return static_cast<std::ptrdiff_t>(i) + 1;
    if (columns > 0) solve(triangle, stride, order, block, columns);
    return 0;
}

}  // namespace dpbo::gp::detail
