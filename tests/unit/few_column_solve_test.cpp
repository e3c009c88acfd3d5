// The GP's own triangular solve for a few right-hand sides (core/bo/src/gp/few_column_solve.hpp):
// LAPACK's answer to rounding, the same bits as the plain loop it promises on every machine, LAPACK's
// report of a zero on the diagonal, and a factor held with a leading dimension larger than its order.
#include <doctest/doctest.h>

#include <armadillo>

#include "dpbo/random.hpp"
#include "gp/few_column_solve.hpp"

namespace {

// A well-conditioned lower-triangular order × order block at (first, first) of a stride × stride
// matrix whose other entries are garbage the solve must not read.
arma::mat factor_with_room(std::size_t order, std::size_t first, std::size_t stride, dpbo::ExperimentRng& rng) {
    arma::mat held(stride, stride);
    held.fill(1e300);
    const arma::mat a = rng.uniform(order, order);
    held.submat(first, first, first + order - 1, first + order - 1) =
        arma::chol(a * a.t() / static_cast<double>(order) + arma::eye(order, order), "lower");
    for (std::size_t j = 0; j < order; ++j)
        for (std::size_t i = 0; i < j; ++i) held(first + i, first + j) = 1e300;  // its upper triangle too
    return held;
}

// Forward substitution as the routine promises to round: each entry below a panel of eight columns
// takes ((t0 x0 + t1 x1) + (t2 x2 + t3 x3)) + ((t4 x4 + t5 x5) + (t6 x6 + t7 x7)) at once; inside a
// panel one column at a time (a last panel of fewer columns has no rows below it). Compiled for the
// baseline x86-64, which has no fused multiply-add to contract into.
arma::mat reference_solve(const arma::mat& t, arma::mat b) {
    const std::size_t n = t.n_rows;
    for (std::size_t j = 0; j < b.n_cols; ++j) {
        for (std::size_t k0 = 0; k0 < n; k0 += 8) {
            const std::size_t end = std::min(n, k0 + 8);
            for (std::size_t c = k0; c < end; ++c) {
                b(c, j) = b(c, j) / t(c, c);
                for (std::size_t r = c + 1; r < end; ++r) b(r, j) -= t(r, c) * b(c, j);
            }
            for (std::size_t i = end; i < n; ++i) {
                const auto term = [&](std::size_t c) { return t(i, k0 + c) * b(k0 + c, j); };
                b(i, j) -= ((term(0) + term(1)) + (term(2) + term(3))) + ((term(4) + term(5)) + (term(6) + term(7)));
            }
        }
    }
    return b;
}

}  // namespace

TEST_CASE("few-column solve: LAPACK's answer, and the same bits as the plain loop, for every shape") {
    dpbo::ExperimentRng rng(7);
    for (const std::size_t order : {1, 2, 7, 8, 9, 16, 17, 63, 200}) {
        for (const std::size_t columns : {0, 1, 2, 3, 4, 5, 7, 8}) {
            CAPTURE(order);
            CAPTURE(columns);
            const std::size_t first = order % 3;
            const std::size_t stride = order + first + 5;
            const arma::mat held = factor_with_room(order, first, stride, rng);
            const arma::mat t = arma::trimatl(held.submat(first, first, first + order - 1, first + order - 1));
            const arma::mat b = rng.uniform(order, columns) - 0.5;
            arma::mat ours = b;
            REQUIRE(dpbo::gp::detail::few_column_lower_solve(held.memptr() + first + first * stride, stride, order,
                                                             ours.memptr(), columns) == 0);
            if (columns == 0) continue;
            const arma::mat lapack = arma::solve(arma::trimatl(t), b);
            // Backward stable: the residual of either is a few units of rounding in |T| |x|.
            const double scale = arma::abs(t).max() * arma::abs(lapack).max() * static_cast<double>(order);
            CHECK(arma::abs(t * ours - b).max() <= 8 * arma::datum::eps * scale);
            CHECK(arma::abs(ours - lapack).max() <= 1e-10 * (1.0 + arma::abs(lapack).max()));
            CHECK(arma::approx_equal(ours, reference_solve(t, b), "absdiff", 0.0));
        }
    }
}

TEST_CASE("few-column solve: a zero on the diagonal is reported by its 1-based index, the block untouched") {
    dpbo::ExperimentRng rng(3);
    arma::mat t = factor_with_room(20, 0, 20, rng);
    t(13, 13) = 0.0;
    const arma::mat b = rng.uniform(20, 3);
    arma::mat block = b;
    CHECK(dpbo::gp::detail::few_column_lower_solve(t.memptr(), 20, 20, block.memptr(), 3) == 14);
    CHECK(arma::approx_equal(block, b, "absdiff", 0.0));
}
