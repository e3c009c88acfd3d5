// The GP cache's two products in one pass (core/bo/src/gp/cache_products.hpp): the same bits as two
// plain loops summing over the columns in order, for every shape around its blocks of 512 rows, and a
// strided first vector (a row of the Cholesky factor).
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
