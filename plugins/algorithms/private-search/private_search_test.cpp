// Algorithm 'private-search' through the registry, on the Laplace-scored trial threshold-count-trial:
// one RepeatAndSelectEvent charged before the first trial, the trials covered by its bound, K and the
// prior drawn from the charge's stream, only the selected trial released, the statement's words,
// the thresholded variant, and the refusals.
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/registry.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// Evaluates serially with trial noise of its own, and records what the run had done before each batch:
// the ledger's charges and whether the trials were covered.
class RecordingEvaluator final : public dpbo::Evaluator {
public:
    explicit RecordingEvaluator(const dpbo::PrivacyLedger& ledger) : ledger_(ledger) {}
    std::vector<std::size_t> charges_before_batch;
    std::vector<bool> covered_before_batch;
    std::vector<std::size_t> batch_sizes;

protected:
    dpbo::Evaluations evaluate_batch(dpbo::Objective& objective, const arma::mat& points,
                                     const dpbo::EvaluationRequest& request) override {
        charges_before_batch.push_back(ledger_.charges());
        covered_before_batch.push_back(trial_cover().has_value());
        batch_sizes.push_back(points.n_rows);
        dpbo::EvaluationRequest with_noise = request;
        if (with_noise.trial_noise == nullptr) with_noise.trial_noise = &noise_;
        return objective.evaluate(points, with_noise);
    }

private:
    const dpbo::PrivacyLedger& ledger_;
    dpbo::PrivacyNoiseSource noise_ = dpbo::PrivacyNoiseSource::from_seed(99);
};

struct SearchRun {
    dpbo::RunResult result;
    std::vector<std::size_t> charges_before_batch;
    std::vector<bool> covered_before_batch;
    std::vector<std::size_t> batch_sizes;
    std::vector<dpbo::LedgerEntry> log;
};

SearchRun run_search(const Parameters& algorithm_parameters, const Parameters& objective_parameters, std::uint64_t seed,
                     const std::string& objective_name = "threshold-count-trial") {
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("private-search", algorithm_parameters);
    auto objective = dpbo::test::make<dpbo::Objective>(objective_name, objective_parameters);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
    dpbo::PrivacyLedger ledger(dpbo::test::make<dpbo::Accountant>("rdp"), std::nullopt, noise, "private-search");
    RecordingEvaluator evaluator(ledger);
    evaluator.attach_trial_ledger(&ledger);
    dpbo::ExperimentRng rng(seed);
    dpbo::RunObserver quiet;
    dpbo::RunContext context{*objective, evaluator, rng, ledger, quiet, dpbo::test::registry(), {}};
    SearchRun run;
    run.result = algorithm->run(context);
    run.result.privacy = ledger.statement_for(run.result.privacy);
    run.charges_before_batch = evaluator.charges_before_batch;
    run.covered_before_batch = evaluator.covered_before_batch;
    run.batch_sizes = evaluator.batch_sizes;
    run.log = ledger.log();
    return run;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

bool any_contains(const std::vector<std::string>& lines, const std::string& part) {
    for (const auto& line : lines)
        if (contains(line, part)) return true;
    return false;
}

}  // namespace

TEST_CASE("private-search: one selection charged and the trials covered before the first trial") {
    const SearchRun run = run_search({{"count", "geometric:mean=6"}, {"batch", "2"}}, {{"epsilon", "0.5"}}, 21);
    REQUIRE(run.log.size() == 1);
    CHECK(run.log.front().event.kind() == "repeat-and-select");
    REQUIRE_FALSE(run.charges_before_batch.empty());
    for (std::size_t charges : run.charges_before_batch) CHECK(charges == 1);
    for (bool covered : run.covered_before_batch) CHECK(covered);
    for (std::size_t size : run.batch_sizes) CHECK(size <= 2);
    const double k = dpbo::test::named_value(run.result.evaluation_only, "trials_run")(0);
    CHECK(k == static_cast<double>(run.result.evaluations));
    CHECK(run.result.trace.rows().size() == run.result.evaluations);
}

TEST_CASE("private-search: only the best trial is released; every trial's record is evaluation-only") {
    const SearchRun run = run_search({{"count", "fixed:k=8"}}, {{"epsilon", "1"}}, 5);
    REQUIRE(run.result.evaluations == 8);
    const arma::vec scores = dpbo::test::trace_column(run.result.trace, "score");
    const arma::vec x = dpbo::test::trace_column(run.result.trace, "x[0]");
    const arma::uword best = scores.index_max();
    CHECK(dpbo::test::named_value(run.result.released, "selected")(0) == 1.0);
    CHECK(dpbo::test::named_value(run.result.released, "best_score")(0) == scores(best));
    CHECK(dpbo::test::named_value(run.result.released, "best_point")(0) == x(best));
    CHECK(run.result.released.size() == 3);
    for (const auto& column : run.result.trace.columns()) CHECK(column.evaluation_only);
}

TEST_CASE("private-search: K and the hyperparameters come from the selection's stream, not the experiment seed") {
    // The same privacy key: the same K and trials whatever the experiment generator would give.
    const SearchRun first = run_search({{"count", "poisson:mean=5"}}, {}, 8);
    const SearchRun again = run_search({{"count", "poisson:mean=5"}}, {}, 8);
    CHECK(first.result.evaluations == again.result.evaluations);
    CHECK(arma::approx_equal(dpbo::test::trace_column(first.result.trace, "x[0]"),
                             dpbo::test::trace_column(again.result.trace, "x[0]"), "absdiff", 0.0));
}

TEST_CASE("private-search: the statement names the selection, what a trial protects and that K is hidden") {
    const SearchRun run = run_search({{"count", "geometric:mean=10"}}, {{"epsilon", "0.5"}}, 3);
    const dpbo::PrivacyStatement& statement = run.result.privacy;
    CHECK(statement.notion != dpbo::PrivacyNotion::NotPrivate);
    CHECK(statement.neighbouring == "replace one record");
    CHECK(contains(statement.protected_unit, "threshold-count-trial"));
    CHECK(contains(statement.mechanism, "selection of the best trial"));
    CHECK(contains(statement.mechanism, "Papernot & Steinke"));
    CHECK(any_contains(statement.released, "best_point"));
    CHECK(any_contains(statement.assumptions, "K, the number of trials run, is not released"));
    CHECK(any_contains(statement.assumptions, "laplace:"));
    CHECK_NOTHROW(statement.validate());
}

TEST_CASE("private-search: thresholded stopping releases the first trial past τ and runs none after it") {
    // τ = −0.25 is passed by most thresholds near the median, so some trial passes within K.
    const SearchRun run =
        run_search({{"count", "geometric:mean=50"}, {"release", "first-above-threshold"}, {"threshold", "-0.25"}},
                   {{"epsilon", "2"}}, 13);
    const arma::vec scores = dpbo::test::trace_column(run.result.trace, "score");
    REQUIRE(scores.n_elem >= 1);
    if (dpbo::test::named_value(run.result.released, "selected")(0) == 1.0) {
        CHECK(scores(scores.n_elem - 1) >= -0.25);
        for (arma::uword i = 0; i + 1 < scores.n_elem; ++i) CHECK(scores(i) < -0.25);
        CHECK(dpbo::test::named_value(run.result.released, "best_score")(0) == scores(scores.n_elem - 1));
    } else {
        CHECK(arma::all(scores < -0.25));
    }
    CHECK(contains(run.result.privacy.mechanism, "Liu & Talwar"));
}

TEST_CASE("private-search: refusals name what is wrong") {
    CHECK_THROWS_WITH_AS(run_search({}, {}, 1, "quadratic"), doctest::Contains("PrivateTrials"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(run_search({}, {}, 1, "quadratic"), doctest::Contains("random-search"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("private-search", {{"release", "first-above-threshold"}}),
                         doctest::Contains("threshold"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(
        dpbo::test::make<dpbo::Algorithm>(
            "private-search", {{"release", "first-above-threshold"}, {"threshold", "0"}, {"count", "poisson:mean=5"}}),
        doctest::Contains("geometric"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("private-search", {{"count", "geometric:mean=0.5"}}),
                         doctest::Contains("mean"), dpbo::ValidationError);
    // A user's bound looser than the objective's is accepted; a tighter one is refused.
    CHECK_THROWS_WITH_AS(run_search({{"trial", "laplace:scale=100,sensitivity=0.01"}}, {}, 1),
                         doctest::Contains("does not cover"), dpbo::ValidationError);
}
