// The GP cache's loops (core/bo/src/gp/cache_products.hpp): its two products in one pass with the
// bits of two plain loops summing over the columns in order (around the blocks of 512 rows, a strided
// first vector: a row of the Cholesky factor), and its solve from the right with the bits of the
// plain substitution (around the blocks of 64 rows) and LAPACK's answer.
#include <doctest/doctest.h>

#include <cstring>

#include <armadillo>

#include "dpbo/random.hpp"
#include "gp/cache_products.hpp"

TEST_CASE("cache products: V a and V b with the plain loops' bits, a read with a stride") {
    dpbo::ExperimentRng rng(13);
    for (const std::size_t rows : {1, 7, 511, 512, 513, 1500}) {
        for (const std::size_t columns : {0, 1, 2, 31}) {
            CAPTURE(rows);
            CAPTURE(columns);
            const arma::mat v = (rng.uniform(rows, columns) - 0.5) * 1e4;
            const std::size_t stride = 5;
            const arma::vec a_held = arma::vec(rng.uniform(std::max<std::size_t>(columns, 1) * stride, 1)) - 0.5;
            const arma::vec b = arma::vec(rng.uniform(columns, 1)) - 0.5;
            arma::vec t(rows);
            arma::vec u(rows);
            t.fill(123.0);  // whatever the outputs held before is overwritten
            u.fill(-7.0);
            dpbo::gp::detail::two_products(v.memptr(), rows, columns, a_held.memptr(), stride, b.memptr(), t.memptr(),
                                           u.memptr());
            arma::vec expected_t(rows, arma::fill::zeros);
            arma::vec expected_u(rows, arma::fill::zeros);
            for (std::size_t k = 0; k < columns; ++k) {
                for (std::size_t i = 0; i < rows; ++i) {
                    expected_t[i] += v(i, k) * a_held[k * stride];
                    expected_u[i] += v(i, k) * b[k];
                }
            }
            CHECK(std::memcmp(t.memptr(), expected_t.memptr(), rows * sizeof(double)) == 0);
            CHECK(std::memcmp(u.memptr(), expected_u.memptr(), rows * sizeof(double)) == 0);
        }
    }
}

TEST_CASE("cache solve from the right: X L⁻ᵀ as the plain substitution rounds, and LAPACK's answer") {
    dpbo::ExperimentRng rng(19);
    for (const std::size_t order : {1, 2, 9, 64}) {
        for (const std::size_t rows : {1, 63, 64, 65, 200}) {
            CAPTURE(order);
            CAPTURE(rows);
            const std::size_t stride = order + 3;
            arma::mat held(stride, stride);
            held.fill(1e300);  // entries the solve must not read
            const arma::mat a = rng.uniform(order, order);
            held.submat(0, 0, order - 1, order - 1) =
                arma::chol(a * a.t() / static_cast<double>(order) + arma::eye(order, order), "lower");
            for (std::size_t j = 1; j < order; ++j)
                for (std::size_t i = 0; i < j; ++i) held(i, j) = 1e300;
            const arma::mat b = rng.uniform(rows, order) - 0.5;
            arma::mat x = b;
            dpbo::gp::detail::solve_rows_from_right(held.memptr(), stride, order, x.memptr(), rows);
            arma::mat expected = b;
            for (std::size_t r = 0; r < rows; ++r) {
                for (std::size_t j = 0; j < order; ++j) {
                    double sum = expected(r, j);
                    for (std::size_t i = 0; i < j; ++i) sum -= expected(r, i) * held(j, i);
                    expected(r, j) = sum / held(j, j);
                }
            }
            CHECK(std::memcmp(x.memptr(), expected.memptr(), x.n_elem * sizeof(double)) == 0);
            const arma::mat lower = arma::trimatl(held.submat(0, 0, order - 1, order - 1));
            CHECK(arma::approx_equal(x * lower.t(), b, "absdiff", 1e-12));
        }
    }
}
