#include <doctest/doctest.h>

#include "dpbo/bo/pareto.hpp"
#include "dpbo/errors.hpp"

using dpbo::Sense;

namespace {
bool same(const arma::uvec& a, const arma::uvec& b) { return a.n_elem == b.n_elem && arma::all(a == b); }
}  // namespace

TEST_CASE("pareto: the non-dominated rows honour each output's own sense") {
    // Rows: (error, accuracy-like score).
    const arma::mat values = {{1.0, 5.0}, {2.0, 6.0}, {3.0, 4.0}, {0.5, 1.0}, {2.5, 6.0}};
    // Both minimised: (0.5, 1) dominates every other row.
    CHECK(same(dpbo::non_dominated(values, {Sense::Minimise, Sense::Minimise}), arma::uvec{3}));
    // Both maximised: (3, 4) and (2.5, 6) are the front; (2, 6) loses to (2.5, 6) on the first output.
    CHECK(same(dpbo::non_dominated(values, {Sense::Maximise, Sense::Maximise}), arma::uvec{2, 4}));
    // First minimised, second maximised: (0.5, 1), (1, 5), (2, 6); (2.5, 6) ties (2, 6) on the
    // second output and is worse on the first, so it is dominated.
    CHECK(same(dpbo::non_dominated(values, {Sense::Minimise, Sense::Maximise}), arma::uvec{0, 1, 3}));
    // First maximised, second minimised: (3, 4) beats (1, 5), (2, 6) and (2.5, 6) on both outputs;
    // (0.5, 1) has the smallest second output.
    CHECK(same(dpbo::non_dominated(values, {Sense::Maximise, Sense::Minimise}), arma::uvec{2, 3}));
}

TEST_CASE("pareto: ties on one output and duplicates") {
    // Equal on the first output: the better second output dominates.
    const arma::mat tied = {{1.0, 2.0}, {1.0, 3.0}};
    CHECK(same(dpbo::non_dominated(tied, {Sense::Minimise, Sense::Minimise}), arma::uvec{0}));
    // Duplicates of a front row dominate neither each other nor are dominated: both are kept.
    const arma::mat duplicated = {{1.0, 2.0}, {1.0, 2.0}, {2.0, 3.0}};
    CHECK(same(dpbo::non_dominated(duplicated, {Sense::Minimise, Sense::Minimise}), arma::uvec{0, 1}));
    // One output: the front is every row equal to the best value.
    const arma::mat single = arma::mat{4.0, 1.0, 1.0, 3.0}.t();
    CHECK(same(dpbo::non_dominated(single, {Sense::Minimise}), arma::uvec{1, 2}));
    CHECK(same(dpbo::non_dominated(single, {Sense::Maximise}), arma::uvec{0}));
    // Three outputs.
    const arma::mat three = {{1.0, 1.0, 1.0}, {0.0, 2.0, 1.0}, {1.0, 1.0, 2.0}};
    CHECK(same(dpbo::non_dominated(three, {Sense::Minimise, Sense::Minimise, Sense::Minimise}), arma::uvec{0, 1}));
}

TEST_CASE("pareto: bad input is refused with what was expected") {
    CHECK_THROWS_WITH_AS(dpbo::non_dominated(arma::mat(2, 2, arma::fill::zeros), {Sense::Minimise}),
                         doctest::Contains("1 senses for 2 output columns"), dpbo::ValidationError);
    const arma::mat with_nan = {{1.0, arma::datum::nan}};
    CHECK_THROWS_AS(dpbo::non_dominated(with_nan, {Sense::Minimise, Sense::Minimise}), dpbo::ValidationError);
    CHECK_THROWS_AS(
        dpbo::hypervolume_2d(arma::mat(1, 3, arma::fill::zeros), {0.0, 0.0}, {Sense::Minimise, Sense::Minimise}),
        dpbo::ValidationError);
}

TEST_CASE("pareto: 2-D hypervolume against a reference point, in both senses") {
    // Minimising both, reference (4, 4): the staircase of (1, 3), (2, 2), (3, 1) covers
    // 3·1 + 2·1 + 1·1 = 6 unit squares.
    const arma::mat front = {{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}};
    const std::vector<Sense> minimise = {Sense::Minimise, Sense::Minimise};
    CHECK(dpbo::hypervolume_2d(front, {4.0, 4.0}, minimise) == doctest::Approx(6.0).epsilon(1e-15));
    // A dominated row, a duplicate and a row beyond the reference add nothing.
    const arma::mat noisy_front = {{1.0, 3.0}, {2.0, 2.0}, {3.0, 1.0}, {3.0, 3.0}, {2.0, 2.0}, {5.0, 0.0}};
    CHECK(dpbo::hypervolume_2d(noisy_front, {4.0, 4.0}, minimise) == doctest::Approx(6.0).epsilon(1e-15));
    // The same front with its second output negated and maximised covers the same area.
    arma::mat mirrored = front;
    mirrored.col(1) *= -1.0;
    CHECK(dpbo::hypervolume_2d(mirrored, {4.0, -4.0}, {Sense::Minimise, Sense::Maximise}) ==
          doctest::Approx(6.0).epsilon(1e-15));
    // One point: its rectangle to the reference.
    CHECK(dpbo::hypervolume_2d(arma::mat{{1.0, 2.0}}, {3.0, 5.0}, minimise) == doctest::Approx(6.0).epsilon(1e-15));
    // Nothing better than the reference: zero.
    CHECK(dpbo::hypervolume_2d(arma::mat{{5.0, 5.0}}, {4.0, 4.0}, minimise) == 0.0);
    CHECK(dpbo::hypervolume_2d(arma::mat(0, 2), {4.0, 4.0}, minimise) == 0.0);
}
