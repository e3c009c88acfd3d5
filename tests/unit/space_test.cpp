#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"

TEST_CASE("space: a box refuses empty, inverted and non-positive log bounds") {
    CHECK_THROWS_AS(dpbo::SearchSpace::box({}), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::SearchSpace::box({{"lr", 1.0, 0.5}}), doctest::Contains("'lr'"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::SearchSpace::box({{"lr", 0.0, 1.0, dpbo::Scale::Log}}), doctest::Contains("log-scaled"),
                         dpbo::ValidationError);
    CHECK_THROWS_AS(dpbo::SearchSpace::box({{"k", 0.2, 0.8, dpbo::Scale::Linear, true}}), dpbo::ValidationError);
    // Finite bounds whose width overflows: every sample and unit-cube map would be inf.
    CHECK_THROWS_WITH_AS(dpbo::SearchSpace::uniform_box(2, -1e308, 1e308),
                         doctest::Contains("'x0' has lower = -1e+308 and upper = 1e+308"), dpbo::ValidationError);
}

TEST_CASE("space: the unit-cube map respects log scale and integrality") {
    const auto space = dpbo::SearchSpace::box(
        {{"lr", 1e-4, 1e-1, dpbo::Scale::Log}, {"epochs", 1, 64, dpbo::Scale::Linear, true}, {"x", -1, 1}});
    arma::mat unit = {{0.0, 0.0, 0.0}, {1.0, 1.0, 1.0}, {1.0 / 3.0, 0.5, 0.75}};
    const arma::mat points = space.from_unit(unit);
    CHECK(points(0, 0) == doctest::Approx(1e-4));
    CHECK(points(1, 0) == doctest::Approx(1e-1));
    CHECK(points(2, 0) == doctest::Approx(1e-3));  // a third of the way in log space
    CHECK(points(2, 1) == 33.0);                   // 1 + 0.5·63 = 32.5 rounds to even-away 33
    CHECK(points(2, 2) == doctest::Approx(0.5));
    const arma::mat back = space.to_unit(points.rows(0, 1));
    CHECK(arma::approx_equal(back, unit.rows(0, 1), "absdiff", 1e-12));
}

TEST_CASE("space: samples and grids lie in the box, grids have levels^d points") {
    const auto space = dpbo::SearchSpace::uniform_box(3, -2.0, 5.0);
    dpbo::ExperimentRng rng(5);
    const arma::mat samples = space.sample(1000, rng);
    CHECK_NOTHROW(space.check_contains(samples, "test"));
    CHECK(samples.min() >= -2.0);
    CHECK(samples.max() <= 5.0);
    const arma::mat grid = space.grid(4);
    CHECK(grid.n_rows == 64);
    CHECK(grid.min() == -2.0);
    CHECK(grid.max() == 5.0);
    CHECK(arma::approx_equal(space.centre(), arma::rowvec{1.5, 1.5, 1.5}, "absdiff", 1e-12));
}

TEST_CASE("space: check_contains names the point and coordinate outside the box") {
    const auto space = dpbo::SearchSpace::uniform_box(2, 0.0, 1.0);
    const arma::mat points = {{0.5, 0.5}, {0.2, 1.5}};
    CHECK_THROWS_WITH_AS(space.check_contains(points, "ctx"), doctest::Contains("point 1 has x1 = 1.5"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(space.check_contains(arma::mat(1, 3, arma::fill::zeros), "ctx"),
                         doctest::Contains("3 columns"), dpbo::ValidationError);
    const arma::mat clamped = space.clamp(points);
    CHECK(clamped(1, 1) == 1.0);
}

TEST_CASE("space: a finite candidate set samples its own rows") {
    const arma::mat rows = {{0.0, 1.0}, {2.0, 3.0}, {4.0, 5.0}};
    const auto space = dpbo::SearchSpace::candidates(rows);
    CHECK(space.is_finite());
    CHECK(space.dim() == 2);
    dpbo::ExperimentRng rng(1);
    const arma::mat s = space.sample(20, rng);
    for (arma::uword i = 0; i < s.n_rows; ++i) {
        bool found = false;
        for (arma::uword r = 0; r < rows.n_rows; ++r)
            found = found || arma::approx_equal(s.row(i), rows.row(r), "absdiff", 0.0);
        CHECK(found);
    }
    CHECK(arma::approx_equal(space.grid(2), rows, "absdiff", 0.0));
    CHECK_THROWS_AS(dpbo::SearchSpace::candidates(arma::mat()), dpbo::ValidationError);
}
