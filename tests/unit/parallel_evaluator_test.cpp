// ParallelEvaluator: a batch split across threads, each slice on its own objective instance, merged
// back in order — the values, per-record losses and candidate rows the serial evaluator gives for a
// deterministic objective, whatever the number of workers (up to the rounding of arithmetic whose
// order depends on the batch's size).
#include <memory>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/parallel_evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

std::shared_ptr<dpbo::Objective> records() {
    return dpbo::test::make<dpbo::Objective>("normal-location", {{"dim", "3"}, {"records", "12"}});
}

}  // namespace

TEST_CASE("parallel evaluator: the serial evaluator's values and per-record losses, in order, for 2 to 5 workers") {
    auto objective = records();
    dpbo::ExperimentRng rng(4);
    const arma::mat points = objective->space().sample(7, rng);
    dpbo::EvaluationRequest request;
    request.per_record = true;
    request.rng = &rng;
    dpbo::SerialEvaluator serial;
    const dpbo::Evaluations expected = serial.evaluate(*objective, points, request);
    for (const std::size_t workers : {2, 3, 5}) {
        CAPTURE(workers);
        std::vector<std::shared_ptr<dpbo::Objective>> replicas;
        for (std::size_t w = 1; w < workers; ++w) replicas.push_back(records());
        dpbo::ParallelEvaluator parallel(workers, replicas);
        const dpbo::Evaluations got = parallel.evaluate(*objective, points, request);
        CHECK(arma::approx_equal(got.values, expected.values, "absdiff", 0.0));
        // normal-location's per-record losses go through a matrix product whose rounding depends on how
        // many points it multiplies (one point takes another BLAS path than several).
        CHECK(arma::approx_equal(got.per_record, expected.per_record, "reldiff", 1e-13));
        CHECK(arma::approx_equal(got.points, points, "absdiff", 0.0));
        CHECK(parallel.evaluations() == 7);
    }
}

TEST_CASE("parallel evaluator: candidate rows of a finite set are merged in order, misuse is refused") {
    auto grid = dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "2"}, {"grid", "6"}});
    const arma::mat& rows = grid->space().candidate_rows();
    const arma::mat points = rows.rows(arma::uvec{5, 0, 33, 12, 7});
    std::vector<std::shared_ptr<dpbo::Objective>> replicas = {
        dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "2"}, {"grid", "6"}})};
    dpbo::ParallelEvaluator parallel(2, replicas);
    const dpbo::Evaluations got = parallel.evaluate(*grid, points, {});
    CHECK(arma::all(got.candidate_rows == arma::uvec{5, 0, 33, 12, 7}));

    CHECK_THROWS_AS(dpbo::ParallelEvaluator(1, {}), dpbo::ValidationError);
    dpbo::ParallelEvaluator short_of_replicas(3, replicas);
    CHECK_THROWS_WITH_AS(short_of_replicas.evaluate(*grid, points, {}), doctest::Contains("is not thread-safe"),
                         dpbo::RunError);
}
