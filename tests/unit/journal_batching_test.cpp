// Issue 29's journal and grid cases, below the command line: a run journal writes a batch as one
// transaction of one row through a statement prepared once (asserted through SQLite's own count of
// changed rows and the store's counts of commits and preparations, never through timing), keeps a
// digest of the points instead of the points, and the grid search enumerates exactly the rows of
// SearchSpace::grid a batch at a time while keeping only its best point when nothing is private,
// and its front over several outputs batch by batch.
#include <cmath>
#include <cstddef>
#include <cstring>
#include <tuple>
#include <filesystem>
#include <memory>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/bo/pareto.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/journal_store.hpp"
#include "dpbo/host/repeat_journal.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "util/search_memory.hpp"
#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

bool same_bits(const arma::mat& a, const arma::mat& b) {
    return a.n_rows == b.n_rows && a.n_cols == b.n_cols &&
           (a.is_empty() || std::memcmp(a.memptr(), b.memptr(), a.n_elem * sizeof(double)) == 0);
}

const std::string kJob = R"({"algorithm":{"name":"batching test"},"seed":1})";

// Evaluates `total` uniform points of `objective` in batches of `batch` through a serial evaluator
// that keeps `journal`; returns every point asked for, in order.
arma::mat evaluate_in_batches(dpbo::Objective& objective, dpbo::RunJournal& journal, std::size_t total,
                              std::size_t batch) {
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_journal(&journal);
    dpbo::ExperimentRng rng(11);
    arma::mat all(0, objective.space().dim());
    for (std::size_t done = 0; done < total; done += batch) {
        const arma::mat points = objective.space().sample(std::min(batch, total - done), rng);
        evaluator.evaluate(objective, points, {.per_record = false, .rng = &rng});
        all = arma::join_cols(all, points);
    }
    return all;
}

// Records what a search asks for and answers zeros of the objective's shape, so that any search
// space can be enumerated without the objective's own cost.
class RecordingEvaluator final : public dpbo::Evaluator {
public:
    arma::mat asked;

protected:
    dpbo::Evaluations evaluate_batch(dpbo::Objective& objective, const arma::mat& points,
                                     const dpbo::EvaluationRequest&) override {
        asked = arma::join_cols(asked, points);
        dpbo::Evaluations e;
        e.points = points;
        e.values.zeros(points.n_rows, objective.outputs().size());
        e.auxiliary.zeros(points.n_rows, objective.auxiliary_outputs().size());
        return e;
    }
};

}  // namespace

TEST_CASE("journal batching: N points in batches of b are ⌈N/b⌉ transactions of one row, statements prepared once") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path file = fs::path(dir.path()) / "journal.sqlite";
    auto objective = dpbo::test::make<dpbo::Objective>("branin");
    constexpr std::size_t kPoints = 1000;
    constexpr std::size_t kBatch = 64;  // 16 batches, the last of 40 points
    constexpr std::size_t kBatches = (kPoints + kBatch - 1) / kBatch;
    arma::mat asked(0, 2);
    {
        dpbo::RepeatJournal journal(file, kJob, 1, 5);
        dpbo::SerialEvaluator evaluator;
        evaluator.attach_journal(&journal);
        dpbo::ExperimentRng rng(11);
        std::size_t prepared_for_first = 0;
        for (std::size_t done = 0; done < kPoints; done += kBatch) {
            const arma::mat points = objective->space().sample(std::min(kBatch, kPoints - done), rng);
            evaluator.evaluate(*objective, points, {.per_record = false, .rng = &rng});
            asked = arma::join_cols(asked, points);
            if (done == 0) prepared_for_first = journal.store().statements_prepared();
        }
        CHECK(evaluator.batches() == kBatches);
        // One transaction and one inserted row per batch, not one per point.
        CHECK(journal.store().commits() == kBatches);
        CHECK(journal.store().total_changes() == static_cast<std::int64_t>(kBatches));
        // The statement that writes a batch was prepared for the first and reused for the others.
        CHECK(journal.store().statements_prepared() == prepared_for_first);
    }
    // Reopened as a resumed run would: the rows hold each batch's values and its points' digest.
    auto store = dpbo::JournalStore::open(file, "run");
    CHECK(store->batch_count() == kBatches);
    CHECK(store->trials().empty());
    const auto last = store->evaluated_batch(15);
    REQUIRE(last);
    CHECK(last->size == kPoints - 15 * kBatch);
    const arma::mat last_points = asked.tail_rows(last->size);
    CHECK(last->points_digest == dpbo::JournalStore::points_digest(last_points));
    CHECK(same_bits(last->values, dpbo::test::evaluate(*objective, last_points, false).values));
}

TEST_CASE("journal batching: the digest tells points apart by their bits and shape") {
    const arma::mat points = {{0.1, 2.0}, {-0.0, 3.0}};
    const std::string digest = dpbo::JournalStore::points_digest(points);
    CHECK(digest.size() == 32);
    CHECK(dpbo::JournalStore::points_digest(arma::mat(points)) == digest);
    arma::mat signed_zero = points;
    signed_zero(1, 0) = 0.0;  // −0 and +0 compare equal, but are other bits
    CHECK(dpbo::JournalStore::points_digest(signed_zero) != digest);
    arma::mat moved = points;
    moved(0, 0) = std::nextafter(0.1, 1.0);
    CHECK(dpbo::JournalStore::points_digest(moved) != digest);
    // The same four numbers as one row are other points.
    CHECK(dpbo::JournalStore::points_digest(arma::reshape(points, 1, 4)) != digest);
}

TEST_CASE("journal batching: a resumed run's batches come back from the rows, at the points it asks for") {
    dpbo::test::TemporaryDirectory dir;
    const fs::path file = fs::path(dir.path()) / "journal.sqlite";
    auto objective = dpbo::test::make<dpbo::Objective>("hartmann6");
    arma::mat first;
    {
        dpbo::RepeatJournal journal(file, kJob, 1, 5);
        first = evaluate_in_batches(*objective, journal, 30, 7);  // 5 batches
    }
    dpbo::RepeatJournal resumed(file, kJob, 1, 5);
    REQUIRE(resumed.recorded_batches() == 5);
    const auto batch = resumed.recorded_batch(4, first.tail_rows(2), {});
    REQUIRE(batch);
    CHECK(same_bits(batch->points, first.tail_rows(2)));
    CHECK(same_bits(batch->values, dpbo::test::evaluate(*objective, first.tail_rows(2), false).values));
    CHECK_FALSE(resumed.recorded_batch(5, first.tail_rows(2), {}));
    CHECK_THROWS_WITH_AS(resumed.recorded_batch(3, first.tail_rows(2), {}),
                         doctest::Contains("the run asks to evaluate batch 4 at 2 point(s) other than the 7"),
                         dpbo::RunError);
    CHECK(resumed.diverged());
}

TEST_CASE("grid search: enumerated a batch at a time, it asks for SearchSpace::grid's rows bit for bit") {
    // Log-scaled and integer dimensions (svt: noise b on a log scale, an integer cutoff), and a box
    // with neither; batches that do not divide the grid.
    for (const auto& [name, levels, batch] : {std::tuple{"svt", 9, 10}, std::tuple{"branin", 13, 7}}) {
        CAPTURE(name);
        auto objective = dpbo::test::make<dpbo::Objective>(name);
        auto grid = dpbo::test::make<dpbo::Algorithm>(
            "grid-search", {{"per_dimension", std::to_string(levels)}, {"batch", std::to_string(batch)}});
        RecordingEvaluator evaluator;
        dpbo::test::run_algorithm(*grid, *objective, 3, {.evaluator = &evaluator});
        CHECK(same_bits(evaluator.asked, objective->space().grid(static_cast<std::size_t>(levels))));
    }
}

TEST_CASE("grid search: without a mechanism it releases the first best point, as the whole grid's argmin does") {
    auto objective = dpbo::test::make<dpbo::Objective>("branin");
    auto grid = dpbo::test::make<dpbo::Algorithm>("grid-search", {{"per_dimension", "41"}, {"batch", "17"}});
    const dpbo::RunResult result = dpbo::test::run_algorithm(*grid, *objective, 3);
    const arma::mat all = objective->space().grid(41);
    const arma::vec values = dpbo::test::evaluate(*objective, all, false).values;
    const arma::uword best = values.index_min();
    CHECK(same_bits(dpbo::test::named_value(result.released, "best_point"), all.row(best)));
    CHECK(dpbo::test::named_value(result.released, "best_value")(0) == values(best));
    CHECK(dpbo::test::trace_column(result.trace, "best_true_value_so_far").tail(1)(0) == values(best));
}

TEST_CASE("search memory: without a mechanism a search holds a batch and a trace row per batch, whatever k") {
    // The issue's grid: 7071² points in batches of 100 000.
    const dpbo::memory::SearchShape grid{.points = 7071.0 * 7071.0, .batch = 1e5, .dim = 2.0};
    CHECK(dpbo::memory::search_bytes(grid) < 16.0 * 1024 * 1024);
    dpbo::memory::SearchShape twice = grid;
    twice.points *= 2.0;
    // Only the trace grows: 160 bytes a row, a row per batch.
    CHECK(dpbo::memory::search_bytes(twice) - dpbo::memory::search_bytes(grid) ==
          doctest::Approx(500.0 * dpbo::memory::kBytesPerTraceRow).epsilon(0.01));
    // A mechanism releases every value at once: every point and value is kept.
    dpbo::memory::SearchShape is_private = grid;
    is_private.keeps_every_point = true;
    is_private.released_numbers_per_point = 1.0;
    CHECK(dpbo::memory::search_bytes(is_private) > grid.points * (2.0 * 3.0 * 8.0 + 80.0));
}

namespace {

// Two minimised outputs that trade off along x and ripple along y, with ties (a coarse rounding),
// so that fronts hold duplicates and points that only tie in one output.
class RippledTradeOff final : public dpbo::Objective {
public:
    const dpbo::SearchSpace& space() const override { return space_; }
    std::vector<dpbo::Output> outputs() const override {
        return {{"cost", dpbo::Sense::Minimise}, {"loss", dpbo::Sense::Minimise}};
    }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest&) override {
        dpbo::Evaluations e;
        e.points = points;
        e.values.set_size(points.n_rows, 2);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            e.values(i, 0) = std::round(8.0 * points(i, 0)) / 8.0;
            e.values(i, 1) = std::round(8.0 * (1.0 - points(i, 0) + 0.3 * std::sin(7.0 * points(i, 1)))) / 8.0;
        }
        return e;
    }

private:
    dpbo::SearchSpace space_ = dpbo::SearchSpace::uniform_box(2, 0.0, 1.0);
};

}  // namespace

TEST_CASE("grid search over two outputs: the front kept batch by batch is the front of every point so far") {
    RippledTradeOff objective;
    auto grid = dpbo::test::make<dpbo::Algorithm>("grid-search",
                                                  {{"per_dimension", "25"}, {"batch", "9"}, {"reference", "2, 2"}});
    const dpbo::RunResult result = dpbo::test::run_algorithm(*grid, objective, 3);
    const arma::mat points = objective.space().grid(25);
    const arma::mat values = objective.evaluate(points, {}).values;
    const std::vector<dpbo::Sense> senses{dpbo::Sense::Minimise, dpbo::Sense::Minimise};
    const arma::vec front_sizes = dpbo::test::trace_column(result.trace, "front_size");
    const arma::vec hypervolumes = dpbo::test::trace_column(result.trace, "hypervolume");
    REQUIRE(front_sizes.n_elem == (625 + 8) / 9);
    for (std::size_t row = 0; row < front_sizes.n_elem; ++row) {
        CAPTURE(row);
        const arma::mat so_far = values.head_rows(std::min<std::size_t>(625, 9 * (row + 1)));
        CHECK(front_sizes(row) == static_cast<double>(dpbo::non_dominated(so_far, senses).n_elem));
        CHECK(hypervolumes(row) == dpbo::hypervolume_2d(so_far, arma::rowvec{2.0, 2.0}, senses));
    }
    const arma::uvec front = dpbo::non_dominated(values, senses);
    CHECK(front.n_elem > 1);
    CHECK(same_bits(dpbo::test::named_value(result.released, "pareto_points"), points.rows(front)));
    CHECK(same_bits(dpbo::test::named_value(result.released, "pareto_values"), values.rows(front)));
    CHECK(dpbo::test::named_value(result.released, "hypervolume")(0) ==
          dpbo::hypervolume_2d(values, arma::rowvec{2.0, 2.0}, senses));
}
