// Algorithm 'dp-gd' (the DP-GIBO paper's noisy-gradient-descent baseline) on normal-location and
// huber-regression, and the private-gradient pieces it shares with dp-gibo: the clipped average's
// sensitivity and the released noise's scale.
//
// Statistical checks use k = 5 standard errors of the statistic's sampling distribution: a two-sided
// normal tail of 2·Φ(−5) ≈ 5.7e−7. With the noise seeds fixed each check is deterministic; 5 SE keeps
// a wrong scale (a factor √T or 2 off, say) far outside the band while a right one is inside.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/privacy/private_gradient.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/random.hpp"
#include "dpbo/result.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

constexpr double kStandardErrors = 5.0;

class StoppingObserver final : public dpbo::RunObserver {
public:
    explicit StoppingObserver(std::size_t stop_after) : stop_after_(stop_after) {}
    void on_iteration(std::size_t /*iteration*/, const dpbo::Trace& /*trace*/) override { ++seen; }
    bool should_stop() override { return seen >= stop_after_; }
    std::size_t seen = 0;

private:
    std::size_t stop_after_;
};

using dpbo::test::named_value;
using dpbo::test::trace_column;

dpbo::RunResult run_dp_gd(dpbo::Objective& objective, const Parameters& parameters, std::uint64_t seed,
                          dpbo::RunObserver* observer = nullptr) {
    auto algorithm = dpbo::test::make<dpbo::Algorithm>("dp-gd", parameters);
    dpbo::test::RunComponents components;
    components.observer = observer;
    // The runner's accountant: gdp, reporting at the algorithm's equivalent_delta.
    if (parameters.count("equivalent_delta"))
        components.accountant =
            dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", parameters.at("equivalent_delta")}});
    return dpbo::test::run_algorithm(*algorithm, objective, seed, components);
}

double value_at(dpbo::Objective& objective, const arma::rowvec& point) {
    return objective.evaluate(arma::mat(point), dpbo::EvaluationRequest{}).values(0);
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string refusal(dpbo::Objective& objective, const Parameters& parameters) {
    try {
        run_dp_gd(objective, parameters, 1);
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

// A record-decomposable objective with a chosen space, for the refusals.
class ShapedObjective : public dpbo::Objective, public dpbo::RecordDecomposable {
public:
    explicit ShapedObjective(dpbo::SearchSpace space) : space_(std::move(space)) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        dpbo::Evaluations result;
        result.points = points;
        result.values = arma::sum(arma::square(points), 1);
        if (request.per_record) result.per_record = arma::repmat(result.values, 1, 3);
        return result;
    }
    std::size_t record_count() const override { return 3; }

private:
    dpbo::SearchSpace space_;
};

// The same with per-record gradients.
class ShapedWithGradients final : public ShapedObjective, public dpbo::RecordGradients {
public:
    using ShapedObjective::ShapedObjective;
    arma::mat record_gradients(const arma::rowvec& point) const override { return arma::repmat(2.0 * point, 3, 1); }
};

}  // namespace

TEST_CASE("dp-gd: with a huge mu and no clipping it converges to the known optimum (non-private sanity)") {
    SUBCASE("normal-location") {
        auto objective = dpbo::test::make<dpbo::Objective>("normal-location");
        // Record gradients θ − x_i stay below 20 in the box, so B = 100 never clips; σ = 2·100·10/(50·1e9).
        const auto result = run_dp_gd(*objective, {{"mu", "1e9"}, {"clipping_bound", "100"}, {"lr", "0.5"}}, 3);
        const arma::rowvec mle = dpbo::known_optimum(*objective)->points.row(0);
        CHECK(arma::norm(named_value(result.released, "theta_final") - mle) < 1e-6);
        CHECK(named_value(result.evaluation_only, "distance_to_optimum")(0) < 1e-6);
        CHECK(arma::accu(trace_column(result.trace, "clipped_records")) == 0.0);
    }
    SUBCASE("huber-regression") {
        auto objective = dpbo::test::make<dpbo::Objective>("huber-regression");
        // Per-record gradients are at most c√2 ≈ 1.41 in norm, so B = 10 never clips.
        const auto result =
            run_dp_gd(*objective, {{"mu", "1e9"}, {"clipping_bound", "10"}, {"lr", "0.5"}, {"iterations", "400"}}, 3);
        const arma::rowvec optimiser = dpbo::known_optimum(*objective)->points.row(0);
        CHECK(arma::norm(named_value(result.released, "theta_final") - optimiser) < 1e-6);
        CHECK(named_value(result.evaluation_only, "simple_regret")(0) < 1e-10);
    }
}

TEST_CASE("dp-gd: the first step is theta0 - lr * gradient (plain) and lr * sign (AdaGrad)") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location");
    const arma::rowvec theta0 = {1.0, 2.0, 3.0, -1.0, 0.0};
    const arma::rowvec mle = dpbo::known_optimum(*objective)->points.row(0);
    const Parameters base = {{"mu", "1e9"}, {"clipping_bound", "100"}, {"iterations", "5"}, {"theta0", "1,2,3,-1,0"}};
    Parameters plain = base;
    plain["lr"] = "0.25";
    const auto plain_run = run_dp_gd(*objective, plain, 2);
    const arma::rowvec first = dpbo::test::trace_vectors(plain_run.trace, "theta", 5).row(0);
    CHECK(arma::abs(first - (theta0 - 0.25 * (theta0 - mle))).max() < 1e-6);
    Parameters adagrad = base;
    adagrad["optimizer"] = "adagrad";
    adagrad["lr"] = "0.3";
    const auto adagrad_run = run_dp_gd(*objective, adagrad, 2);
    const arma::rowvec moved = dpbo::test::trace_vectors(adagrad_run.trace, "theta", 5).row(0) - theta0;
    CHECK(arma::abs(arma::abs(moved) - 0.3).max() < 1e-6);
    CHECK(arma::all(moved % (theta0 - mle) < 0.0));
    // Default start: the box centre (0), one plain step of 0.2 (the default lr) towards the MLE.
    const auto default_run = run_dp_gd(*objective, {{"mu", "1e9"}, {"clipping_bound", "100"}, {"iterations", "1"}}, 2);
    CHECK(arma::abs(named_value(default_run.released, "theta_final") - 0.2 * mle).max() < 1e-6);
}

TEST_CASE("dp-gd: the statement is the GDP accountant's composition of T releases at mu/sqrt(T)") {
    auto objective = dpbo::test::make<dpbo::Objective>("huber-regression");
    struct Case {
        double mu;
        std::size_t iterations;
        double delta;
    };
    for (const Case& c : {Case{1.0, 100, 1e-5}, Case{0.5, 37, 1e-6}}) {
        const auto result = run_dp_gd(*objective,
                                      {{"mu", std::to_string(c.mu)},
                                       {"iterations", std::to_string(c.iterations)},
                                       {"equivalent_delta", std::to_string(c.delta)}},
                                      4);
        const dpbo::PrivacyStatement& statement = result.privacy;
        REQUIRE_NOTHROW(statement.validate());
        auto accountant = dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", std::to_string(c.delta)}});
        for (std::size_t t = 0; t < c.iterations; ++t)
            accountant->compose({dpbo::GdpEvent{c.mu / std::sqrt(static_cast<double>(c.iterations))}});
        const dpbo::PrivacyStatement expected = accountant->total();
        CAPTURE(c.mu);
        CHECK(statement.notion == dpbo::PrivacyNotion::GaussianDP);
        CHECK(std::abs(statement.mu - expected.mu) <= 1e-12);
        CHECK(std::abs(statement.mu - c.mu) <= 1e-12);
        REQUIRE(statement.equivalent_epsilon_delta.size() == 1);
        CHECK(statement.equivalent_epsilon_delta[0].second == c.delta);
        CHECK(std::abs(statement.equivalent_epsilon_delta[0].first - accountant->epsilon_for_delta(c.delta)) <= 1e-9);
        CHECK(mentions(statement.neighbouring, "replace one record"));
        CHECK(mentions(statement.protected_unit, "record"));
        CHECK(mentions(statement.mechanism, "2B/n"));
        CHECK_FALSE(statement.released.empty());
        bool data_independence = false;
        for (const auto& a : statement.assumptions) data_independence = data_independence || mentions(a, "θ_0");
        CHECK(data_independence);
        CHECK(result.evaluations == c.iterations);
        CHECK(result.trace.rows().size() == c.iterations);
        CHECK(named_value(result.released, "theta_path").n_rows == c.iterations);
    }
}

TEST_CASE("dp-gd: a run stopped early states the composition of the releases it made") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location");
    StoppingObserver observer(10);
    const auto result = run_dp_gd(*objective, {{"mu", "2"}, {"iterations", "40"}}, 5, &observer);
    CHECK(result.stop_reason == "observer");
    CHECK(result.evaluations == 10);
    CHECK(result.trace.rows().size() == 10);
    // Ten releases of 2/√40-GDP compose to 2·√(10/40) = 1.
    CHECK(std::abs(result.privacy.mu - 1.0) <= 1e-12);
}

TEST_CASE("dp-gd: trace columns are released or marked evaluation-only, and agree with the objective") {
    auto objective = dpbo::test::make<dpbo::Objective>("huber-regression");
    const auto result = run_dp_gd(*objective, {{"iterations", "20"}}, 6);
    const auto& columns = result.trace.columns();
    const auto flag = [&](const std::string& name) { return columns[result.trace.column_index(name)].evaluation_only; };
    for (const char* name : {"iteration", "theta[0]", "theta[3]", "gradient_norm", "step_norm"}) {
        CAPTURE(name);
        CHECK_FALSE(flag(name));
    }
    for (const char* name :
         {"clipped_records", "largest_record_gradient_norm", "noise_norm", "objective_value", "distance_to_optimum"}) {
        CAPTURE(name);
        CHECK(flag(name));
    }
    const arma::mat thetas = dpbo::test::trace_vectors(result.trace, "theta", 4);
    CHECK(arma::approx_equal(named_value(result.released, "theta_path"), thetas, "absdiff", 0.0));
    CHECK(arma::approx_equal(named_value(result.released, "theta_final"), thetas.row(19), "absdiff", 0.0));
    const arma::vec values = trace_column(result.trace, "objective_value");
    const arma::vec steps = trace_column(result.trace, "step_norm");
    const arma::vec distances = trace_column(result.trace, "distance_to_optimum");
    const arma::rowvec optimiser = dpbo::known_optimum(*objective)->points.row(0);
    for (arma::uword t = 0; t < thetas.n_rows; ++t) {
        CAPTURE(t);
        CHECK(std::abs(values(t) - value_at(*objective, thetas.row(t))) <= 1e-12);
        CHECK(std::abs(distances(t) - arma::norm(thetas.row(t) - optimiser)) <= 1e-12);
        const arma::rowvec previous = t == 0 ? arma::rowvec(4, arma::fill::zeros) : arma::rowvec(thetas.row(t - 1));
        CHECK(std::abs(steps(t) - arma::norm(thetas.row(t) - previous)) <= 1e-12);
    }
    CHECK(std::abs(named_value(result.evaluation_only, "objective_value")(0) - values(19)) <= 1e-12);
}

TEST_CASE("dp-gd: the added noise has standard deviation 2B*sqrt(T)/(n*mu) per coordinate") {
    // huber-regression: n = 100, d = 4; T = 100, B = 0.8, μ = 0.7 ⇒ σ = 2·0.8·10/(100·0.7).
    auto objective = dpbo::test::make<dpbo::Objective>("huber-regression");
    const auto result = run_dp_gd(*objective, {{"mu", "0.7"}, {"clipping_bound", "0.8"}}, 7);
    const double sigma = 2.0 * 0.8 * 10.0 / (100.0 * 0.7);
    // Σ_t ‖noise_t‖²/σ² ~ χ² with T·d = 400 degrees of freedom: mean 400, standard deviation √800.
    const arma::vec norms = trace_column(result.trace, "noise_norm");
    const double statistic = arma::accu(arma::square(norms)) / (sigma * sigma);
    const double dof = 400.0;
    CHECK(std::abs(statistic - dof) <= kStandardErrors * std::sqrt(2.0 * dof));
    // The mechanism line states the same σ.
    CHECK(mentions(result.privacy.mechanism, "σ = 2B√T/(nμ)"));
}

TEST_CASE("private gradient release: noise is N(0, (2B*sqrt(T)/(n*mu))^2) from the privacy-noise source") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location");  // n = 50
    dpbo::SerialEvaluator evaluator;
    dpbo::ExperimentRng rng(1);
    auto noise = dpbo::PrivacyNoiseSource::from_seed(21);
    dpbo::PrivacyLedger ledger(dpbo::test::make<dpbo::Accountant>("gdp"), std::nullopt, noise, "test");
    dpbo::RunObserver observer;
    dpbo::RunContext context{*objective, evaluator, rng, ledger, observer, dpbo::test::registry(), {}};
    dpbo::PrivateGradientSettings settings;
    settings.mu = 0.8;
    settings.steps = 200;
    settings.clipping_bound = 1.5;
    settings.records = 50;
    settings.dimension = 100;
    dpbo::PrivateGradientRelease release(context, "test", settings);
    // Calibrated to 2B/n times 1 + (√d·n² + d + 4)·2⁻⁵⁰, the floating-point allowance of the average.
    const double allowance = (10.0 * 2500.0 + 104.0) * 0x1.0p-50;
    const double sigma = 2.0 * 1.5 * std::sqrt(200.0) / (50.0 * 0.8) * (1.0 + allowance);
    CHECK(std::abs(release.noise_stddev() - sigma) <= 1e-14 * sigma);
    CHECK(std::abs(release.sensitivity() - 2.0 * 1.5 / 50.0) <= 1e-15);
    CHECK(release.calibrated_sensitivity() == doctest::Approx(2.0 * 1.5 / 50.0 * (1.0 + allowance)).epsilon(1e-15));
    CHECK(release.calibrated_sensitivity() > release.sensitivity());
    CHECK(std::abs(release.per_step_mu() - 0.8 / std::sqrt(200.0)) <= 1e-15);

    const arma::vec average = arma::linspace(-1.0, 1.0, 100);
    arma::mat draws(100, 200);
    for (arma::uword t = 0; t < 200; ++t) draws.col(t) = release.release(average) - average;
    // N = 20 000 draws with known mean 0: N·s²/σ² ~ χ²_N, so s²/σ² has standard error √(2/N); the
    // sample mean has standard error σ/√N.
    const double count = static_cast<double>(draws.n_elem);
    const double variance_ratio = arma::accu(arma::square(draws)) / count / (sigma * sigma);
    CHECK(std::abs(variance_ratio - 1.0) <= kStandardErrors * std::sqrt(2.0 / count));
    CHECK(std::abs(arma::accu(draws) / count) <= kStandardErrors * sigma / std::sqrt(count));
    // The budget covers T releases, not one more.
    CHECK_THROWS_AS(release.release(average), dpbo::RunError);
}

TEST_CASE("clip_and_average: replacing one record by an adversarial one moves the average by at most 2B/n") {
    const std::size_t n = 30;
    const std::size_t d = 5;
    const double bound = 0.7;
    const double sensitivity = 2.0 * bound / static_cast<double>(n);
    dpbo::ExperimentRng rng(17);
    double largest_change = 0.0;
    for (int trial = 0; trial < 200; ++trial) {
        // Gradients of norms around B, some clipped and some not.
        const arma::mat gradients = 1.5 * bound * rng.normal(d, n) / std::sqrt(static_cast<double>(d));
        const auto original = dpbo::clip_and_average(gradients, bound, "test");
        arma::mat neighbour = gradients;
        const std::size_t replaced = rng.index(n);
        neighbour.col(replaced) = 1e6 * rng.normal(d, 1);
        const auto changed = dpbo::clip_and_average(neighbour, bound, "test");
        const double change = arma::norm(changed.mean - original.mean);
        CAPTURE(trial);
        CHECK(change <= sensitivity * (1.0 + 1e-12));
        largest_change = std::max(largest_change, change);
    }
    // Random adversaries come close to the bound, so the check above is not vacuous.
    CHECK(largest_change >= 0.75 * sensitivity);
    // And the bound is attained: a record at 3B along u replaced by one far along −u.
    arma::mat gradients = bound * rng.normal(d, n);
    arma::vec direction = rng.normal(d, 1);
    direction /= arma::norm(direction);
    gradients.col(0) = 3.0 * bound * direction;
    arma::mat neighbour = gradients;
    neighbour.col(0) = -1e9 * direction;
    const double change = arma::norm(dpbo::clip_and_average(neighbour, bound, "test").mean -
                                     dpbo::clip_and_average(gradients, bound, "test").mean);
    CHECK(std::abs(change - sensitivity) <= 1e-12 * sensitivity);
}

TEST_CASE("dp-gd: iterates stay in the box however large the noise") {
    auto objective = dpbo::test::make<dpbo::Objective>("normal-location");
    // μ = 0.01: σ = 2·1·10/(50·0.01) = 40 per coordinate, so unclamped steps would leave [−5, 5].
    const auto result = run_dp_gd(*objective, {{"mu", "0.01"}, {"lr", "1"}}, 8);
    const arma::mat thetas = dpbo::test::trace_vectors(result.trace, "theta", 5);
    CHECK(thetas.max() <= 5.0);
    CHECK(thetas.min() >= -5.0);
    CHECK(arma::accu(arma::abs(thetas) == 5.0) > 0);
}

TEST_CASE("dp-gd: the same seed gives the same path, another seed another path") {
    auto objective = dpbo::test::make<dpbo::Objective>("huber-regression");
    const auto first = run_dp_gd(*objective, {{"iterations", "15"}}, 9);
    const auto again = run_dp_gd(*objective, {{"iterations", "15"}}, 9);
    const auto other = run_dp_gd(*objective, {{"iterations", "15"}}, 10);
    CHECK(arma::approx_equal(named_value(first.released, "theta_path"), named_value(again.released, "theta_path"),
                             "absdiff", 0.0));
    CHECK(arma::norm(named_value(first.released, "theta_final") - named_value(other.released, "theta_final")) > 0.0);
}

TEST_CASE("dp-gd: refuses objectives it cannot run on, and bad settings, naming what is wrong") {
    auto quadratic = dpbo::test::make<dpbo::Objective>("quadratic");
    CHECK(mentions(refusal(*quadratic, {}), "not record-decomposable"));

    ShapedObjective no_gradients(dpbo::SearchSpace::uniform_box(2, -1.0, 1.0));
    CHECK(mentions(refusal(no_gradients, {}), "no per-record gradients"));

    ShapedWithGradients finite(dpbo::SearchSpace::candidates(arma::mat{{0.0, 0.0}, {1.0, 1.0}}));
    CHECK(mentions(refusal(finite, {}), "finite candidate set"));

    ShapedWithGradients logarithmic(dpbo::SearchSpace::box({{"a", 0.0, 1.0}, {"rate", 1e-3, 1.0, dpbo::Scale::Log}}));
    const std::string log_message = refusal(logarithmic, {});
    CHECK(mentions(log_message, "'rate'"));
    CHECK(mentions(log_message, "log"));

    ShapedWithGradients integer(
        dpbo::SearchSpace::box({{"a", 0.0, 1.0}, {"epochs", 1.0, 10.0, dpbo::Scale::Linear, true}}));
    CHECK(mentions(refusal(integer, {}), "integer"));

    // A box and gradients suffice.
    ShapedWithGradients fine(dpbo::SearchSpace::uniform_box(2, -1.0, 1.0));
    CHECK(refusal(fine, {{"iterations", "3"}}).empty());

    auto normal = dpbo::test::make<dpbo::Objective>("normal-location");
    CHECK(mentions(refusal(*normal, {{"theta0", "0,0"}}), "theta0"));
    CHECK(mentions(refusal(*normal, {{"theta0", "0,0,0,0,9"}}), "theta0"));

    const auto parameter_refusal = [](const Parameters& parameters) -> std::string {
        try {
            dpbo::test::make<dpbo::Algorithm>("dp-gd", parameters);
        } catch (const dpbo::ValidationError& error) {
            return error.what();
        }
        return "";
    };
    CHECK(mentions(parameter_refusal({{"mu", "0"}}), "mu"));
    CHECK(mentions(parameter_refusal({{"clipping_bound", "-1"}}), "clipping_bound"));
    CHECK(mentions(parameter_refusal({{"iterations", "0"}}), "iterations"));
    CHECK(mentions(parameter_refusal({{"equivalent_delta", "1"}}), "equivalent_delta"));
    CHECK(mentions(parameter_refusal({{"lr", "0"}}), "lr"));
    CHECK(mentions(parameter_refusal({{"optimizer", "adagrad"}, {"lr_schedule", "inverse-sqrt"}}), "lr_schedule"));
}
