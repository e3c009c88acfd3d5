// random-search and grid-search, loaded through the registry and run on the benchmark
// objectives, with and without a privacy mechanism.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <numbers>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/result.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// Keeps every point and exact value the algorithm asked for, to compare with what it released.
class RecordingEvaluator final : public dpbo::Evaluator {
public:
    arma::mat points;
    arma::vec values;

protected:
    dpbo::Evaluations evaluate_batch(dpbo::Objective& objective, const arma::mat& batch,
                                     const dpbo::EvaluationRequest& request) override {
        dpbo::Evaluations result = objective.evaluate(batch, request);
        points = arma::join_cols(points, result.points);
        values = arma::join_cols(values, result.values);
        return result;
    }
};

class StoppingObserver final : public dpbo::RunObserver {
public:
    explicit StoppingObserver(std::size_t stop_after) : stop_after_(stop_after) {}
    void on_start(std::size_t planned_iterations) override { planned = planned_iterations; }
    void on_iteration(std::size_t iteration, const dpbo::Trace& trace) override {
        iterations.push_back(iteration);
        trace_rows_seen = trace.rows().size();
    }
    bool should_stop() override { return iterations.size() >= stop_after_; }

    std::size_t planned = 0;
    std::vector<std::size_t> iterations;
    std::size_t trace_rows_seen = 0;

private:
    std::size_t stop_after_;
};

// Five fixed candidates scored x + 2y, maximised: best (1, 1) with 3.
class CandidateScores final : public dpbo::Objective, public dpbo::FiniteCandidates, public dpbo::HasKnownOptimum {
public:
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Sense sense() const override { return dpbo::Sense::Maximise; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& /*request*/) override {
        dpbo::Evaluations result;
        result.points = points;
        result.values = points.col(0) + 2.0 * points.col(1);
        result.candidate_rows.set_size(points.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            for (arma::uword row = 0; row < kRows.n_rows; ++row) {
                if (arma::approx_equal(points.row(i), kRows.row(row), "absdiff", 0.0)) {
                    result.candidate_rows(i) = row;
                }
            }
        }
        return result;
    }
    dpbo::CandidateRows candidates() const override {
        return {space_.candidate_rows(), dpbo::RowStatus::DataIndependent};
    }
    std::optional<dpbo::KnownOptimum> known_optimum() const override {
        return dpbo::KnownOptimum{3.0, arma::mat{{1.0, 1.0}}};
    }

    inline static const arma::mat kRows{{0.0, 0.0}, {1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}, {0.5, 0.5}};

private:
    dpbo::SearchSpace space_ = dpbo::SearchSpace::candidates(kRows);
};

struct Harness {
    std::shared_ptr<dpbo::Objective> objective;
    std::shared_ptr<dpbo::Mechanism> mechanism;
    std::string accountant = "gdp";  // the runner's: 'basic' for a mechanism not calibrated by mu
    std::uint64_t seed = 1;
    RecordingEvaluator evaluator;
    dpbo::RunObserver plain_observer;
    dpbo::RunObserver* observer = &plain_observer;

    dpbo::RunResult run(const std::string& algorithm, const Parameters& parameters) {
        auto module = dpbo::test::make<dpbo::Algorithm>(algorithm, parameters);
        dpbo::ExperimentRng rng(seed);
        auto noise = dpbo::PrivacyNoiseSource::from_seed(seed);
        dpbo::PrivacyLedger ledger(dpbo::test::make<dpbo::Accountant>(accountant), std::nullopt, noise, algorithm);
        dpbo::RunContext context{*objective, evaluator, rng, ledger, *observer, dpbo::test::registry(), {}};
        if (mechanism) context.roles.add("mechanism", mechanism);
        dpbo::RunResult result = module->run(context);
        result.privacy = ledger.statement_for(result.privacy);
        return result;
    }
};

const arma::mat& named_value(const std::vector<dpbo::ReleasedValue>& values, const std::string& name) {
    const auto found =
        std::find_if(values.begin(), values.end(), [&](const dpbo::ReleasedValue& v) { return v.name == name; });
    REQUIRE_MESSAGE(found != values.end(), "no value named " << name);
    return found->value;
}

const arma::mat& released(const dpbo::RunResult& result, const std::string& name) {
    return named_value(result.released, name);
}

const arma::mat& evaluation_only(const dpbo::RunResult& result, const std::string& name) {
    return named_value(result.evaluation_only, name);
}

bool has_released(const dpbo::RunResult& result, const std::string& name) {
    for (const auto& value : result.released)
        if (value.name == name) return true;
    return false;
}

bool column_is_evaluation_only(const dpbo::Trace& trace, const std::string& name) {
    return trace.columns()[trace.column_index(name)].evaluation_only;
}

std::string refusal(Harness& harness, const std::string& algorithm, const Parameters& parameters) {
    try {
        harness.run(algorithm, parameters);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

bool mentions(const std::string& message, const std::string& text) { return message.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("random-search: 400 draws on quadratic land within the derived regret bound") {
    // With 400 uniform draws in [0,1]² the chance that none lands within r of the centre (0.3,
    // 0.3) is (1 − πr²)^400; r = 0.105 (disc inside the box) makes it < 1e-6, and any draw in
    // the disc has value ≤ r².
    constexpr double kRadius = 0.105;
    REQUIRE(std::pow(1.0 - std::numbers::pi * kRadius * kRadius, 400) < 1e-6);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        CAPTURE(seed);
        Harness harness;
        harness.objective = dpbo::test::make<dpbo::Objective>("quadratic");
        harness.seed = seed;
        const dpbo::RunResult result = harness.run("random-search", {{"budget", "400"}});

        const double regret = evaluation_only(result, "simple_regret")(0, 0);
        MESSAGE("seed " << seed << ": simple regret " << regret);
        CHECK(regret <= kRadius * kRadius);
        CHECK(regret == harness.evaluator.values.min());  // optimum 0: regret is the best value
        CHECK(result.evaluations == 400);
        CHECK(result.stop_reason == "budget");
        CHECK(result.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
        CHECK_FALSE(has_released(result, "noisy_values"));
        CHECK(released(result, "best_value")(0, 0) == evaluation_only(result, "best_point_true_value")(0, 0));
        CHECK(released(result, "best_point").n_cols == 2);
        // Default batch 10: one trace row per batch; the last row agrees with the release.
        const dpbo::Trace& trace = result.trace;
        CHECK(trace.rows().size() == 40);
        CHECK(trace.last("evaluations") == 400);
        CHECK(trace.last("iteration") == 40);
        CHECK(trace.last("simple_regret") == regret);
        CHECK_FALSE(column_is_evaluation_only(trace, "best_true_value_so_far"));
        CHECK_FALSE(column_is_evaluation_only(trace, "simple_regret"));
        CHECK(harness.evaluator.points.min() >= 0.0);
        CHECK(harness.evaluator.points.max() <= 1.0);
    }
}

TEST_CASE("grid-search: 11 levels on [0,1]² hit the centre (0.3, 0.3) exactly") {
    Harness harness;
    harness.objective = dpbo::test::make<dpbo::Objective>("quadratic");
    const dpbo::RunResult result = harness.run("grid-search", {{"per_dimension", "11"}});
    CHECK(arma::approx_equal(released(result, "best_point"), arma::mat{{0.3, 0.3}}, "absdiff", 0.0));
    CHECK(evaluation_only(result, "simple_regret")(0, 0) == 0.0);
    CHECK(released(result, "best_value")(0, 0) == 0.0);
    CHECK(result.evaluations == 121);
    CHECK(result.stop_reason == "grid complete");
    CHECK(result.trace.rows().size() == 13);  // ⌈121 / 10⌉
    // Every grid point once: 11 distinct levels per coordinate, each appearing 11 times.
    const arma::vec levels = arma::unique(harness.evaluator.points.col(0));
    CHECK(levels.n_elem == 11);
    CHECK(arma::vec(arma::unique(harness.evaluator.points.col(1))).n_elem == 11);
}

TEST_CASE("grid-search: a grid above max_points is refused naming per_dimension and its size") {
    Harness harness;
    harness.objective = dpbo::test::make<dpbo::Objective>("quadratic", {{"dim", "6"}});
    const std::string message = refusal(harness, "grid-search", {{"per_dimension", "11"}});
    CAPTURE(message);
    CHECK(mentions(message, "per_dimension = 11"));
    CHECK(mentions(message, "6 dimensions"));
    CHECK(mentions(message, "1771561"));  // 11^6
    CHECK(mentions(message, "max_points = 100000"));
    CHECK(harness.evaluator.evaluations() == 0);
}

TEST_CASE("grid-search and random-search on a finite candidate set, maximising") {
    SUBCASE("grid-search evaluates every candidate once and releases the maximiser") {
        Harness harness;
        harness.objective = std::make_shared<CandidateScores>();
        const dpbo::RunResult result = harness.run("grid-search", {{"batch", "2"}});
        CHECK(arma::approx_equal(harness.evaluator.points, CandidateScores::kRows, "absdiff", 0.0));
        CHECK(arma::approx_equal(released(result, "best_point"), arma::mat{{1.0, 1.0}}, "absdiff", 0.0));
        CHECK(released(result, "best_value")(0, 0) == 3.0);
        CHECK(evaluation_only(result, "simple_regret")(0, 0) == 0.0);
        CHECK(result.trace.rows().size() == 3);
    }
    SUBCASE("grid-search refuses per_dimension for a finite set") {
        Harness harness;
        harness.objective = std::make_shared<CandidateScores>();
        CHECK(mentions(refusal(harness, "grid-search", {{"per_dimension", "5"}}), "per_dimension"));
    }
    SUBCASE("random-search draws only candidate rows and tracks the running maximum") {
        Harness harness;
        harness.objective = std::make_shared<CandidateScores>();
        const dpbo::RunResult result = harness.run("random-search", {{"budget", "40"}});
        for (arma::uword i = 0; i < harness.evaluator.points.n_rows; ++i) {
            bool is_candidate = false;
            for (arma::uword row = 0; row < CandidateScores::kRows.n_rows; ++row)
                is_candidate = is_candidate || arma::approx_equal(harness.evaluator.points.row(i),
                                                                  CandidateScores::kRows.row(row), "absdiff", 0.0);
            CHECK(is_candidate);
        }
        CHECK(released(result, "best_value")(0, 0) == harness.evaluator.values.max());
        const auto& rows = result.trace.rows();
        const std::size_t best = result.trace.column_index("best_true_value_so_far");
        for (std::size_t i = 1; i < rows.size(); ++i) CHECK(rows[i][best] >= rows[i - 1][best]);
    }
}

TEST_CASE("random-search: an observer can stop the run between batches") {
    Harness harness;
    harness.objective = dpbo::test::make<dpbo::Objective>("branin");
    StoppingObserver observer(3);
    harness.observer = &observer;
    const dpbo::RunResult result = harness.run("random-search", {{"budget", "50"}});
    CHECK(observer.planned == 5);
    CHECK(observer.iterations == std::vector<std::size_t>{1, 2, 3});
    CHECK(observer.trace_rows_seen == 3);
    CHECK(result.stop_reason == "observer");
    CHECK(result.evaluations == 30);
    CHECK(released(result, "best_value")(0, 0) == harness.evaluator.values.min());
}

TEST_CASE("random-search: private release with the Gaussian mechanism") {
    constexpr double kMu = 1.0;
    constexpr double kSensitivity = 0.01;
    constexpr std::size_t kBudget = 400;
    Harness harness;
    harness.objective = dpbo::test::make<dpbo::Objective>("quadratic");
    harness.mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1"}});
    harness.seed = 77;
    const dpbo::RunResult result =
        harness.run("random-search", {{"budget", "400"}, {"batch", "50"}, {"value_sensitivity", "0.01"}});

    const dpbo::PrivacyStatement& privacy = result.privacy;
    CHECK(privacy.notion == dpbo::PrivacyNotion::GaussianDP);
    CHECK(privacy.mu == kMu);
    CHECK(privacy.neighbouring == "replace one record");
    CHECK(privacy.protected_unit == "one record of the data behind the objective");
    CHECK(privacy.released.size() == 2);
    bool states_sensitivity = false;
    bool states_independence = false;
    for (const auto& assumption : privacy.assumptions) {
        states_sensitivity = states_sensitivity || mentions(assumption, "Δ=0.01");
        states_independence = states_independence || mentions(assumption, "independently");
    }
    CHECK(states_sensitivity);
    CHECK(states_independence);
    CHECK_NOTHROW(privacy.validate());

    // The vector of k values has L2 sensitivity Δ√k, so σ = Δ√k/μ.
    const double sigma = kSensitivity * std::sqrt(double(kBudget)) / kMu;
    CHECK(harness.mechanism->noise_scale() == doctest::Approx(sigma).epsilon(1e-12));

    const arma::mat& noisy = released(result, "noisy_values");
    REQUIRE(noisy.n_rows == kBudget);
    REQUIRE(harness.evaluator.values.n_elem == kBudget);
    const arma::vec noise = arma::vec(noisy.col(0)) - harness.evaluator.values;
    // 5 standard errors (two-sided normal tail 5.7e-7): mean σ/√k, sample std ≈ σ/√(2(k−1)).
    const double mean_tolerance = 5.0 * sigma / std::sqrt(double(kBudget));
    const double std_tolerance = 5.0 * sigma / std::sqrt(2.0 * (kBudget - 1));
    MESSAGE("noise mean " << arma::mean(noise) << ", std " << arma::stddev(noise) << " (σ = " << sigma << ")");
    CHECK(std::abs(arma::mean(noise)) <= mean_tolerance);
    CHECK(std::abs(arma::stddev(noise) - sigma) <= std_tolerance);

    // The best point is post-processing of the noisy values, not of the exact ones.
    const arma::uword best = arma::vec(noisy.col(0)).index_min();
    CHECK(released(result, "best_value")(0, 0) == noisy(best, 0));
    CHECK(arma::approx_equal(released(result, "best_point"), harness.evaluator.points.row(best), "absdiff", 0.0));
    CHECK(evaluation_only(result, "best_point_true_value")(0, 0) == harness.evaluator.values(best));
    CHECK(column_is_evaluation_only(result.trace, "best_true_value_so_far"));
    CHECK(column_is_evaluation_only(result.trace, "simple_regret"));
    CHECK_FALSE(column_is_evaluation_only(result.trace, "evaluations"));
    CHECK(result.trace.rows().size() == 8);
}

TEST_CASE("grid-search: an L1 mechanism is calibrated to Δ·k") {
    Harness harness;
    harness.objective = dpbo::test::make<dpbo::Objective>("quadratic");
    harness.mechanism = dpbo::test::make<dpbo::Mechanism>("laplace", {{"epsilon", "1"}});
    harness.accountant = "basic";
    const dpbo::RunResult result = harness.run("grid-search", {{"per_dimension", "5"}, {"value_sensitivity", "0.01"}});
    REQUIRE(harness.mechanism->sensitivity_norm() == dpbo::SensitivityNorm::L1);
    CHECK(result.privacy.notion == dpbo::PrivacyNotion::PureDP);
    CHECK(result.privacy.epsilon == 1.0);
    // 25 grid points, each value moving by ≤ 0.01: L1 sensitivity 0.25, Laplace scale 0.25/ε.
    CHECK(harness.mechanism->noise_scale() == doctest::Approx(0.25).epsilon(1e-12));
    const arma::mat& noisy = released(result, "noisy_values");
    REQUIRE(noisy.n_rows == 25);
    CHECK(arma::any(arma::vec(noisy.col(0)) != harness.evaluator.values));
}

TEST_CASE("search algorithms: value_sensitivity is required with a mechanism, refused without") {
    for (const std::string algorithm : {"random-search", "grid-search"}) {
        CAPTURE(algorithm);
        Harness with_mechanism;
        with_mechanism.objective = dpbo::test::make<dpbo::Objective>("quadratic");
        with_mechanism.mechanism = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1"}});
        const std::string missing = refusal(with_mechanism, algorithm, {});
        CAPTURE(missing);
        CHECK(mentions(missing, "algorithm.value_sensitivity"));
        CHECK(mentions(missing, algorithm));
        CHECK(with_mechanism.evaluator.evaluations() == 0);

        Harness without_mechanism;
        without_mechanism.objective = dpbo::test::make<dpbo::Objective>("quadratic");
        const std::string unused = refusal(without_mechanism, algorithm, {{"value_sensitivity", "0.1"}});
        CAPTURE(unused);
        CHECK(mentions(unused, "value_sensitivity"));
        CHECK(mentions(unused, "without a mechanism"));
        CHECK(without_mechanism.evaluator.evaluations() == 0);
    }
}
