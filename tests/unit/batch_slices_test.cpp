// How a batch is cut for several evaluators (threads or MPI ranks), which generator each slice gets,
// and how the slices are merged back: contiguous, in order, sizes differing by at most one, a
// distinct seed per batch and slice, and a slice of the wrong length refused.
#include <set>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/host/batch_slices.hpp"
#include "dpbo/random.hpp"

TEST_CASE("batch slices: contiguous, in order, the first ones one point larger, never more than the points") {
    const auto sizes = [](std::size_t points, std::size_t workers) {
        std::vector<std::size_t> out;
        std::size_t next = 0;
        for (const dpbo::BatchSlice& slice : dpbo::batch_slices(points, workers)) {
            CHECK(slice.first == next);
            next += slice.count;
            out.push_back(slice.count);
        }
        CHECK(next == points);
        return out;
    };
    CHECK(sizes(7, 3) == std::vector<std::size_t>{3, 2, 2});
    CHECK(sizes(10, 2) == std::vector<std::size_t>{5, 5});
    CHECK(sizes(2, 5) == std::vector<std::size_t>{1, 1});
    CHECK(sizes(4, 1) == std::vector<std::size_t>{4});
    // An empty batch is one empty slice, evaluated as a batch.
    CHECK(sizes(0, 3) == std::vector<std::size_t>{0});
}

TEST_CASE("batch slices: a distinct seed for every batch and slice, fixed by the base seed") {
    // Each batch's generator is seeded sub_seed(run seed, batch) (Evaluator::evaluate), each slice's
    // from that.
    std::set<std::uint64_t> seeds;
    for (std::uint64_t batch = 0; batch < 20; ++batch)
        for (std::size_t slice = 0; slice < 8; ++slice)
            seeds.insert(dpbo::slice_seed(dpbo::sub_seed(42, batch), slice));
    CHECK(seeds.size() == 160);
    CHECK(dpbo::slice_seed(42, 1) == dpbo::slice_seed(42, 1));
    CHECK(dpbo::slice_seed(42, 1) != dpbo::slice_seed(43, 1));
}

TEST_CASE("batch slices: merged in order, candidate rows kept only when every slice has them") {
    const arma::mat points = arma::regspace(1, 5);
    const std::vector<dpbo::BatchSlice> slices = dpbo::batch_slices(5, 2);
    std::vector<dpbo::Evaluations> parts(2);
    parts[0].values = arma::mat(arma::vec{10, 20, 30});
    parts[0].candidate_rows = arma::uvec{4, 5, 6};
    parts[1].values = arma::mat(arma::vec{40, 50});
    parts[1].candidate_rows = arma::uvec{7, 8};
    const dpbo::Evaluations merged = dpbo::merge_slices(points, slices, parts, "objective 'test'");
    CHECK(arma::approx_equal(merged.values, arma::mat(arma::vec{10, 20, 30, 40, 50}), "absdiff", 0.0));
    CHECK(arma::all(merged.candidate_rows == arma::uvec{4, 5, 6, 7, 8}));
    CHECK(arma::approx_equal(merged.points, points, "absdiff", 0.0));
    parts[1].candidate_rows.reset();
    CHECK(dpbo::merge_slices(points, slices, parts, "objective 'test'").candidate_rows.is_empty());
    // One value short would move every later point's value onto another point.
    parts[1].values = arma::mat(arma::vec{40});
    CHECK_THROWS_AS(dpbo::merge_slices(points, slices, parts, "objective 'test'"), dpbo::RunError);
}
