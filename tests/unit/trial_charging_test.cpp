// Trials that are private learners (PrivateTrials) through the evaluator: their noise comes from the
// run's ledger per batch, their declared events are checked against the contract, composed into the
// ledger (exactly what a fresh accountant composes for the same events, as `dpbo account` does),
// refused by the budget with nothing handed back, or checked against a private selection's bound.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/host/parallel_evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/objective_capabilities.hpp"
#include "dpbo/privacy/secure_sampling.hpp"
#include "dpbo/privacy_event.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/space.hpp"
#include "test_support.hpp"

namespace {

using dpbo::PrivacyEvent;

constexpr const char* kNeighbouring = "add or remove one record";
constexpr const char* kUnit = "one training row of the test's table";

// Each point is a "trial": its value is x + Laplace noise of scale `scale` drawn from the trial
// noise the host hands over, and it declares that Laplace release (sensitivity 1).
class LaplaceTrials final : public dpbo::Objective, public dpbo::PrivateTrials, public dpbo::ThreadSafe {
public:
    explicit LaplaceTrials(double scale, bool declare = true) : scale_(scale), declare_(declare) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        REQUIRE(request.trial_noise != nullptr);
        dpbo::Evaluations out;
        out.points = points;
        out.values.set_size(points.n_rows, 1);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            out.values(i, 0) = dpbo::privacy::laplace_release(points(i, 0), scale_, *request.trial_noise);
            if (declare_) out.trial_events.push_back({PrivacyEvent(dpbo::LaplaceEvent{scale_, 1.0})});
        }
        return out;
    }
    std::string trial_neighbouring() const override { return kNeighbouring; }
    std::string trial_protected_unit() const override { return kUnit; }
    std::vector<PrivacyEvent> trial_bound() const override { return {PrivacyEvent(dpbo::LaplaceEvent{scale_, 1.0})}; }

private:
    double scale_;
    bool declare_;
    dpbo::SearchSpace space_ = dpbo::SearchSpace::box({{"x", 0.0, 1.0}});
};

// An ordinary objective that nonetheless returns trial events: the contract refuses them.
class StrayEvents final : public dpbo::Objective {
public:
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        CHECK(request.trial_noise == nullptr);
        dpbo::Evaluations out;
        out.points = points;
        out.values = points.col(0);
        out.trial_events.assign(points.n_rows, {PrivacyEvent(dpbo::LaplaceEvent{1.0, 1.0})});
        return out;
    }

private:
    dpbo::SearchSpace space_ = dpbo::SearchSpace::box({{"x", 0.0, 1.0}});
};

struct Run {
    dpbo::PrivacyNoiseSource noise;
    dpbo::PrivacyLedger ledger;
    explicit Run(std::uint64_t seed, std::optional<dpbo::PrivacyBudget> budget = std::nullopt)
        : noise(dpbo::PrivacyNoiseSource::from_seed(seed)),
          ledger(dpbo::test::make<dpbo::Accountant>("basic"), std::move(budget), noise, "algorithm 'test'") {}
};

arma::mat points(std::initializer_list<double> xs) { return arma::mat(arma::vec(std::vector<double>(xs))); }

}  // namespace

TEST_CASE("trials: each point's events are composed into the ledger under the trials' scope") {
    LaplaceTrials objective(10.0);
    Run run(7);
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_trial_ledger(&run.ledger);
    evaluator.evaluate(objective, points({0.1, 0.2, 0.3}), {});
    evaluator.evaluate(objective, points({0.4, 0.5}), {});
    REQUIRE(run.ledger.charges() == 5);
    CHECK(run.ledger.log()[3].event.what == "trial 4 (batch 2, point 0)");

    // The same five events composed on a fresh accountant, as `dpbo account --event` does.
    auto fresh = dpbo::test::make<dpbo::Accountant>("basic");
    for (int i = 0; i < 5; ++i) fresh->compose(PrivacyEvent(dpbo::LaplaceEvent{10.0, 1.0}));
    const dpbo::PrivacyStatement spent = run.ledger.spent();
    CHECK(spent.epsilon == fresh->total().epsilon);
    CHECK(spent.epsilon == doctest::Approx(0.5));
    const dpbo::PrivacyStatement statement = run.ledger.statement_for(spent);
    CHECK(statement.neighbouring == kNeighbouring);
    CHECK(statement.protected_unit == kUnit);
}

TEST_CASE("trials: the noise is the ledger's per batch, the same for the same key and batch") {
    LaplaceTrials objective(1.0);
    const arma::mat at = points({0.5, 0.5});
    Run first(11), again(11), other(12);
    dpbo::SerialEvaluator a, b, c;
    a.attach_trial_ledger(&first.ledger);
    b.attach_trial_ledger(&again.ledger);
    c.attach_trial_ledger(&other.ledger);
    const arma::vec one = a.evaluate(objective, at, {}).values.col(0);
    const arma::vec two = a.evaluate(objective, at, {}).values.col(0);
    CHECK(arma::approx_equal(one, b.evaluate(objective, at, {}).values.col(0), "absdiff", 0.0));
    // Another batch and another key draw other noise (Laplace values coincide with probability 0).
    CHECK(one(0) != two(0));
    CHECK(one(0) != c.evaluate(objective, at, {}).values(0, 0));
    // Within a batch each point draws its own.
    CHECK(one(0) != one(1));
}

TEST_CASE("trials: --workers splits the trial noise per slice and keeps every point's events") {
    LaplaceTrials objective(10.0);
    Run run(5);
    dpbo::ParallelEvaluator evaluator(2, {});
    evaluator.attach_trial_ledger(&run.ledger);
    const dpbo::Evaluations got = evaluator.evaluate(objective, points({0.1, 0.2, 0.3, 0.4}), {});
    REQUIRE(got.trial_events.size() == 4);
    CHECK(run.ledger.charges() == 4);
    // The two slices draw from distinct sources: their first points' noise differs.
    CHECK(got.values(0, 0) - 0.1 != doctest::Approx(got.values(2, 0) - 0.3));
}

TEST_CASE("trials: the contract refuses missing events and events from other objectives, naming the objective") {
    Run run(3);
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_trial_ledger(&run.ledger);
    LaplaceTrials silent(10.0, false);
    CHECK_THROWS_WITH_AS(evaluator.evaluate(silent, points({0.1}), {}),
                         doctest::Contains("returned trial events for 0 points of 1"), dpbo::RunError);
    StrayEvents stray;
    CHECK_THROWS_WITH_AS(evaluator.evaluate(stray, points({0.1}), {}),
                         doctest::Contains("it does not declare PrivateTrials"), dpbo::RunError);
    CHECK(run.ledger.charges() == 0);

    // Without a ledger the trials could be neither keyed nor charged.
    dpbo::SerialEvaluator detached;
    LaplaceTrials objective(10.0);
    CHECK_THROWS_WITH_AS(detached.evaluate(objective, points({0.1}), {}),
                         doctest::Contains("no ledger to charge them to"), dpbo::RunError);
}

TEST_CASE("trials: a batch the budget refuses is discarded, the earlier ones stand") {
    LaplaceTrials objective(10.0);  // ε = 0.1 per trial
    Run run(9, dpbo::PrivacyBudget::parse("epsilon=0.25"));
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_trial_ledger(&run.ledger);
    evaluator.evaluate(objective, points({0.1, 0.2}), {});
    CHECK_THROWS_AS(evaluator.evaluate(objective, points({0.3, 0.4}), {}), dpbo::BudgetExceeded);
    CHECK(evaluator.evaluations() == 2);  // the refused batch's values never came back
    CHECK(run.ledger.spent().epsilon == doctest::Approx(0.2));
}

TEST_CASE("trials: covered by a private selection's bound, a trial within it is not charged and one beyond fails") {
    Run run(4);
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_trial_ledger(&run.ledger);
    evaluator.cover_trials({PrivacyEvent(dpbo::LaplaceEvent{10.0, 1.0})});
    LaplaceTrials within(20.0);  // more noise than the bound: covered
    evaluator.evaluate(within, points({0.1, 0.2}), {});
    CHECK(run.ledger.charges() == 0);
    LaplaceTrials beyond(5.0);
    CHECK_THROWS_WITH_AS(evaluator.evaluate(beyond, points({0.3}), {}),
                         doctest::Contains("trial 3 (batch 2, point 0 (0.3)) declared [laplace:"), dpbo::RunError);
    CHECK(run.ledger.charges() == 0);
}

TEST_CASE("trials: an algorithm whose releases protect other data cannot share the ledger with the trials") {
    Run run(6);
    run.ledger.set_scope("replace one record", "one validation record");
    dpbo::SerialEvaluator evaluator;
    evaluator.attach_trial_ledger(&run.ledger);
    LaplaceTrials objective(10.0);
    CHECK_THROWS_WITH_AS(evaluator.evaluate(objective, points({0.1}), {}),
                         doctest::Contains("cannot be composed into one statement"), dpbo::RunError);
    CHECK(run.ledger.charges() == 0);
}
