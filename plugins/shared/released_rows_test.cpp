// The released rows' index (plugins/shared/released_rows.hpp): a row found by its exact values, the
// first of identical rows, and a point that is no row or has another width refused by name.
#include <doctest/doctest.h>

#include <string>

#include <armadillo>

#include "dpbo/errors.hpp"
#include "released_rows.hpp"

TEST_CASE("released rows' index: exact values, the first of identical rows, refusals that say why") {
    const arma::mat rows = {{0.5, -1.0, 2.0}, {0.25, 3.0, -0.0}, {0.5, -1.0, 2.0}, {7.0, 7.0, 7.0}};
    const dpbo::released_rows::RowIndex index(rows);
    const arma::mat points = {{7.0, 7.0, 7.0}, {0.5, -1.0, 2.0}, {0.25, 3.0, -0.0}};
    const arma::uvec found = index.rows_of(points, "modeler");
    CHECK(found(0) == 3);
    CHECK(found(1) == 0);  // rows 0 and 2 are identical: the first
    CHECK(found(2) == 1);
    // Exact values: one ulp off, or +0 for −0, is another point.
    const arma::mat near = {{0.25, 3.0, 0.0}};
    try {
        index.rows_of(near, "modeler");
        FAIL("a point that is no released row was found");
    } catch (const dpbo::ValidationError& error) {
        CHECK(std::string(error.what()).find("modeler: point 0 is not one of the 4 released rows") !=
              std::string::npos);
    }
    const arma::mat narrow = {{0.5, -1.0}};
    try {
        index.rows_of(narrow, "modeler");
        FAIL("a point of another width was looked up");
    } catch (const dpbo::ValidationError& error) {
        CHECK(std::string(error.what()).find("points have 2 columns; the 4 released rows have 3") != std::string::npos);
    }
}
