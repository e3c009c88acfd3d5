// Squared distances by differences (core/bo/src/gp/pairwise_distances.hpp): the same bits as the
// plain loop it promises on every machine, for every shape around its blocks of 8 and 256 rows.
#include <doctest/doctest.h>

#include <cstring>

#include <armadillo>

#include "dpbo/random.hpp"
#include "gp/pairwise_distances.hpp"

namespace {

// Each entry summed over the dimensions in order, as the routine promises to round. Compiled for the
// baseline x86-64, which has no fused multiply-add to contract into.
arma::mat reference_distances(const arma::mat& a, const arma::mat& b_by_column) {
    arma::mat out(a.n_rows, b_by_column.n_cols);
    for (arma::uword j = 0; j < b_by_column.n_cols; ++j) {
        for (arma::uword i = 0; i < a.n_rows; ++i) {
            double sum = 0.0;
            for (arma::uword k = 0; k < a.n_cols; ++k) {
                const double difference = a(i, k) - b_by_column(k, j);
                sum += difference * difference;
            }
            out(i, j) = sum;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("distances by differences: the plain loop's bits for every shape") {
    dpbo::ExperimentRng rng(11);
    for (const std::size_t rows : {1, 7, 8, 9, 255, 256, 257, 600}) {
        for (const std::size_t columns : {1, 3, 17}) {
            for (const std::size_t dims : {1, 2, 3, 10, 16}) {
                CAPTURE(rows);
                CAPTURE(columns);
                CAPTURE(dims);
                // Coordinates of very different sizes, so that any regrouping of the sum shows.
                const arma::mat a = (rng.uniform(rows, dims) - 0.5) * 1e3;
                const arma::mat b = rng.uniform(dims, columns) - 0.5;
                arma::mat out(rows, columns);
                dpbo::gp::detail::squared_distances_by_differences(a.memptr(), rows, b.memptr(), columns, dims,
                                                                   out.memptr());
                const arma::mat expected = reference_distances(a, b);
                CHECK(std::memcmp(out.memptr(), expected.memptr(), out.n_elem * sizeof(double)) == 0);
            }
        }
    }
}

TEST_CASE("distances by differences: a point against itself is exactly 0, and none is negative") {
    dpbo::ExperimentRng rng(12);
    const arma::mat a = rng.uniform(37, 4) * 1e8;
    const arma::mat b = a.rows(5, 9).t();
    arma::mat out(37, 5);
    dpbo::gp::detail::squared_distances_by_differences(a.memptr(), 37, b.memptr(), 5, 4, out.memptr());
    for (arma::uword j = 0; j < 5; ++j) CHECK(out(5 + j, j) == 0.0);
    CHECK(out.min() >= 0.0);
}
