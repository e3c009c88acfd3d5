// DP-GIBO (algorithm 'dp-gibo') through the registry, on normal-location: the noise it adds, the
// statement it makes, the gradients it estimates, its batches, and its convergence.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/accountant.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/result.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

const Parameters kPolynomial = {{"kernel", "polynomial"},  {"polynomial_degree", "2"}, {"polynomial_offset", "1"},
                                {"mean", "zero"},          {"standardise", "false"},   {"fit", "none"},
                                {"noise_variance", "1e-8"}};

dpbo::RunResult run_dp_gibo(dpbo::Objective& objective, const Parameters& algorithm, const Parameters& surrogate,
                            std::uint64_t seed) {
    auto module = dpbo::test::make<dpbo::Algorithm>("dp-gibo", algorithm);
    dpbo::test::RunComponents components;
    components.roles["surrogate"] = dpbo::test::make<dpbo::Surrogate>("gp", surrogate);
    components.roles["acquisition"] = dpbo::test::make<dpbo::Acquisition>("gibo-trace");
    return dpbo::test::run_algorithm(*module, objective, seed, components);
}

using dpbo::test::trace_column;

arma::rowvec theta_at(const dpbo::Trace& trace, std::size_t row, std::size_t dim) {
    return dpbo::test::trace_vectors(trace, "theta", dim).row(row);
}

std::shared_ptr<dpbo::Objective> normal_location(std::size_t records = 50) {
    return dpbo::test::make<dpbo::Objective>("normal-location", {{"records", std::to_string(records)}});
}

}  // namespace

TEST_CASE("dp-gibo adds Gaussian noise of standard deviation 2B sqrt(T) over n mu per coordinate") {
    // Σ_t ‖w_t‖² over T steps is σ² χ²(dT): mean dT, standard deviation √(2dT). Four standard
    // deviations leave a false-failure chance below 1e-4 for this fixed seed's family.
    const auto objective = normal_location(50);
    const std::size_t iterations = 200;
    const double mu = 0.7;
    const double bound = 0.5;
    const dpbo::RunResult result = run_dp_gibo(*objective,
                                               {{"iterations", std::to_string(iterations)},
                                                {"mu", "0.7"},
                                                {"clipping_bound", "0.5"},
                                                {"batch_size", "3"},
                                                {"track_objective", "false"},
                                                {"sweep_points", "16"},
                                                {"local_starts", "0"}},
                                               kPolynomial, 11);
    const double sigma = 2.0 * bound * std::sqrt(static_cast<double>(iterations)) / (50.0 * mu);
    const double sum_of_squares = arma::accu(arma::square(trace_column(result.trace, "noise_norm")));
    const double degrees = 5.0 * static_cast<double>(iterations);
    const double standardised = (sum_of_squares / (sigma * sigma) - degrees) / std::sqrt(2.0 * degrees);
    CHECK(std::abs(standardised) < 4.0);
    CHECK(result.trace.columns()[result.trace.column_index("noise_norm")].evaluation_only);
}

TEST_CASE("dp-gibo states exactly the GDP accountant's composition of its T releases") {
    const auto objective = normal_location(50);
    const dpbo::RunResult result = run_dp_gibo(*objective,
                                               {{"iterations", "9"},
                                                {"mu", "1.5"},
                                                {"batch_size", "2"},
                                                {"equivalent_delta", "1e-6"},
                                                {"sweep_points", "16"},
                                                {"local_starts", "0"}},
                                               kPolynomial, 3);
    auto accountant = dpbo::test::make<dpbo::Accountant>("gdp", {{"delta", "1e-6"}});
    accountant->compose({dpbo::GdpEvent{1.5 / 3.0}, 9});
    const dpbo::PrivacyStatement expected = accountant->total();
    CHECK(result.privacy.notion == dpbo::PrivacyNotion::GaussianDP);
    CHECK(result.privacy.mu == doctest::Approx(1.5).epsilon(1e-12));
    CHECK(result.privacy.mu == doctest::Approx(expected.mu).epsilon(1e-15));
    REQUIRE(result.privacy.equivalent_epsilon_delta.size() == 1);
    CHECK(result.privacy.equivalent_epsilon_delta[0].first == doctest::Approx(accountant->epsilon_for_delta(1e-6)));
    CHECK(result.privacy.equivalent_epsilon_delta[0].second == 1e-6);
    CHECK(result.privacy.neighbouring == "replace one record");
    CHECK_FALSE(result.privacy.protected_unit.empty());
    CHECK_NOTHROW(result.privacy.validate());
}

TEST_CASE("dp-gibo's per-record gradients are exact for quadratic losses under a quadratic kernel") {
    // With 21 = (d+1)(d+2)/2 generic noise-free points in d = 5 the degree-2 polynomial GP
    // interpolates every record's quadratic loss exactly, so the clipped average (B large) is the
    // exact gradient θ − x̄ at the iterate.
    const auto objective = normal_location(50);
    const arma::rowvec mle = dpbo::known_optimum(*objective)->points.row(0);
    const dpbo::RunResult result = run_dp_gibo(*objective,
                                               {{"iterations", "3"},
                                                {"mu", "1e9"},
                                                {"clipping_bound", "1e6"},
                                                {"batch_size", "21"},
                                                {"sweep_points", "64"},
                                                {"local_starts", "0"}},
                                               kPolynomial, 5);
    const arma::vec norms = trace_column(result.trace, "clipped_gradient_norm");
    // The evaluation-only diagnostic compares the estimate with the objective's exact gradient.
    const arma::vec cosines = trace_column(result.trace, "estimate_cosine");
    CHECK(result.trace.columns()[result.trace.column_index("estimate_cosine")].evaluation_only);
    arma::rowvec theta = objective->space().centre();
    for (arma::uword t = 0; t < norms.n_elem; ++t) {
        CHECK(norms(t) == doctest::Approx(arma::norm(theta - mle)).epsilon(1e-5));
        CHECK(cosines(t) == doctest::Approx(1.0).epsilon(1e-8));
        theta = theta_at(result.trace, t, 5);
    }
}

// A negligible privacy cost (μ = 1e8, a clipping bound that never clips) and plain gradient steps:
// where the model's gradient is exact, the steps reach the minimiser.
const Parameters kNegligibleCostPlainSteps = {{"iterations", "60"},   {"mu", "1e8"},          {"clipping_bound", "100"},
                                              {"batch_size", "3"},    {"optimizer", "plain"}, {"lr", "0.5"},
                                              {"sweep_points", "32"}, {"local_starts", "0"}};

TEST_CASE("dp-gibo with a negligible privacy cost reaches the MLE of normal-location") {
    const auto objective = normal_location(50);
    const dpbo::RunResult result = run_dp_gibo(*objective, kNegligibleCostPlainSteps, kPolynomial, 7);
    CHECK(dpbo::test::named_value(result.evaluation_only, "distance_to_optimum")(0) < 1e-3);
}

TEST_CASE("dp-gibo's adaptive batch is the smallest that meets the bias tolerance, up to its cap") {
    const auto objective = dpbo::test::make<dpbo::Objective>("normal-location", {{"records", "30"}});
    const Parameters rbf = {{"kernel", "rbf"},        {"lengthscale", "1"}, {"mean", "zero"},
                            {"standardise", "false"}, {"fit", "none"},      {"noise_variance", "1e-6"}};
    const dpbo::RunResult result = run_dp_gibo(*objective,
                                               {{"iterations", "6"},
                                                {"mu", "1"},
                                                {"bias_tolerance", "0.5"},
                                                {"max_batch", "9"},
                                                {"reuse_points", "4"},
                                                {"sweep_points", "64"}},
                                               rbf, 9);
    const arma::vec batches = trace_column(result.trace, "batch_size");
    const arma::vec traces = trace_column(result.trace, "gradient_trace");
    bool some_below_cap = false;
    for (std::size_t t = 0; t < batches.size(); ++t) {
        CHECK(batches[t] <= 9.0);
        if (batches[t] < 9.0) {
            some_below_cap = true;
            CHECK(traces[t] <= 0.5 * (1.0 + 1e-6));
        }
    }
    CHECK(some_below_cap);
}

TEST_CASE("dp-gibo refuses objectives without records and contradictory batch settings") {
    const auto branin = dpbo::test::make<dpbo::Objective>("branin");
    CHECK_THROWS_WITH_AS(run_dp_gibo(*branin, {}, kPolynomial, 1), doctest::Contains("not record-decomposable"),
                         dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("dp-gibo", {{"bias_tolerance", "0.1"}, {"batch_size", "3"}}),
                         doctest::Contains("bias_tolerance = 0.1 and batch_size = 3"), dpbo::ValidationError);
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("dp-gibo", {{"start", "centre"}, {"theta0", "0,0,0,0,0"}}),
                         doctest::Contains("theta0 exactly when start = given"), dpbo::ValidationError);
    const auto objective = normal_location(20);
    CHECK_THROWS_WITH_AS(run_dp_gibo(*objective, {{"start", "given"}, {"theta0", "0,0"}}, kPolynomial, 1),
                         doctest::Contains("theta0 has 2 coordinates"), dpbo::ValidationError);
}

namespace {

// L(θ, x_i) = c_i + ½‖θ − x_i‖²: per-record constant levels c_i on top of normal-location's losses.
class OffsetQuadratic final : public dpbo::Objective, public dpbo::RecordDecomposable {
public:
    OffsetQuadratic(const arma::mat& records, const arma::rowvec& offsets)
        : records_(records), offsets_(offsets), space_(dpbo::SearchSpace::uniform_box(records.n_cols, -5.0, 5.0)) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    std::size_t record_count() const override { return records_.n_rows; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        dpbo::Evaluations result;
        result.points = points;
        arma::mat losses(points.n_rows, records_.n_rows);
        for (arma::uword i = 0; i < points.n_rows; ++i) {
            const arma::mat differences = records_.each_row() - points.row(i);
            losses.row(i) = offsets_ + 0.5 * arma::sum(arma::square(differences), 1).t();
        }
        result.values = arma::mean(losses, 1);
        if (request.per_record) result.per_record = losses;
        return result;
    }

private:
    arma::mat records_;
    arma::rowvec offsets_;
    dpbo::SearchSpace space_;
};

}  // namespace

TEST_CASE("dp-gibo's centred estimate ignores each record's constant level, the zero-mean one does not") {
    dpbo::ExperimentRng data(21);
    const arma::mat records = data.normal(40, 4) + 1.0;
    OffsetQuadratic plain(records, arma::zeros<arma::rowvec>(40));
    OffsetQuadratic shifted(records, arma::rowvec(data.uniform(1, 40) * 5.0));
    const Parameters rbf = {{"kernel", "rbf"},        {"lengthscale", "1"}, {"mean", "zero"},
                            {"standardise", "false"}, {"fit", "none"},      {"noise_variance", "1e-6"}};
    const auto first_step = [&](dpbo::Objective& objective, const std::string& centre) {
        const dpbo::RunResult result = run_dp_gibo(objective,
                                                   {{"iterations", "1"},
                                                    {"mu", "1e9"},
                                                    {"clipping_bound", "1e6"},
                                                    {"batch_size", "6"},
                                                    {"optimizer", "plain"},
                                                    {"lr", "1"},
                                                    {"centre_losses", centre},
                                                    {"track_objective", "false"}},
                                                   rbf, 13);
        return theta_at(result.trace, 0, 4);
    };
    // Identical seeds choose identical points, so the steps differ only through the offsets.
    CHECK(arma::norm(first_step(plain, "true") - first_step(shifted, "true")) < 1e-8);
    CHECK(arma::norm(first_step(plain, "false") - first_step(shifted, "false")) > 1e-2);
}

TEST_CASE("dp-gibo's evaluation-only f(θ_T) is the exact value on an objective that draws its own noise") {
    // gp-lengthscales with noise_stddev = 0.3 adds one N(0, 0.09) draw to every evaluation; the run's
    // final_value must be f(θ_T) of the same data without it (as the result describes it), not one more
    // noisy observation.
    const Parameters data = {{"dim", "2"}, {"records", "40"}};
    Parameters noisy_data = data;
    noisy_data["noise_stddev"] = "0.3";
    const auto noisy = dpbo::test::make<dpbo::Objective>("gp-lengthscales", noisy_data);
    const auto exact = dpbo::test::make<dpbo::Objective>("gp-lengthscales", data);
    const dpbo::RunResult result = run_dp_gibo(*noisy, {{"iterations", "3"}, {"mu", "1"}, {"batch_size", "3"}},
                                               {{"kernel", "rbf"}, {"fit", "none"}}, 5);
    const arma::rowvec theta = dpbo::test::named_value(result.released, "theta_final");
    dpbo::EvaluationRequest request;
    const double exact_value = exact->evaluate(arma::mat(theta), request).values(0);
    CHECK(dpbo::test::named_value(result.evaluation_only, "final_value")(0) ==
          doctest::Approx(exact_value).epsilon(1e-12));
}

namespace {

// L(x, r_i) = ½(ln x − r_i)² on a log-scaled x: a quadratic in ln x, minimised at x* = exp(mean r).
class LogQuadratic final : public dpbo::Objective, public dpbo::RecordDecomposable {
public:
    explicit LogQuadratic(const arma::rowvec& records)
        : records_(records),
          space_(dpbo::SearchSpace::box({{"scale", std::exp(-3.0), std::exp(3.0), dpbo::Scale::Log}})) {}
    const dpbo::SearchSpace& space() const override { return space_; }
    std::size_t record_count() const override { return records_.n_elem; }
    dpbo::Evaluations evaluate(const arma::mat& points, const dpbo::EvaluationRequest& request) override {
        space_.check_contains(points, "LogQuadratic");
        evaluated_ = arma::join_cols(evaluated_, points);
        dpbo::Evaluations result;
        result.points = points;
        arma::mat losses(points.n_rows, records_.n_elem);
        for (arma::uword i = 0; i < points.n_rows; ++i)
            losses.row(i) = 0.5 * arma::square(std::log(points(i, 0)) - records_);
        result.values = arma::mean(losses, 1);
        if (request.per_record) result.per_record = losses;
        return result;
    }
    const arma::mat& evaluated() const { return evaluated_; }

private:
    arma::rowvec records_;
    dpbo::SearchSpace space_;
    arma::mat evaluated_;
};

}  // namespace

TEST_CASE("dp-gibo steps a log-scaled dimension in its logarithm and releases the path in the objective's units") {
    const arma::rowvec records = {-1.5, -0.5, 0.0, 0.4, 1.1};
    LogQuadratic objective(records);
    const dpbo::RunResult result = run_dp_gibo(objective, kNegligibleCostPlainSteps, kPolynomial, 3);
    // The loss is exactly quadratic in ln x, so the degree-2 kernel's gradient there is exact and
    // the plain steps reach its minimiser; in x itself it is not, and the same steps would not.
    const double released = dpbo::test::named_value(result.released, "theta_final")(0);
    CHECK(std::abs(std::log(released) - arma::mean(records)) < 1e-3);
    const arma::vec path = dpbo::test::trace_column(result.trace, "theta[0]");
    CHECK(path.min() >= std::exp(-3.0));
    CHECK(path.max() <= std::exp(3.0));
    CHECK(path(path.n_elem - 1) == doctest::Approx(released));
    // Every evaluated point lay in the objective's box (it checks), in the objective's units.
    CHECK(objective.evaluated().n_rows >= 60);
    CHECK(objective.evaluated().min() > 0.0);
    const bool states_log_coordinates =
        std::any_of(result.privacy.assumptions.begin(), result.privacy.assumptions.end(), [](const std::string& a) {
            return a.find("natural logarithm of the log-scaled dimensions (scale)") != std::string::npos;
        });
    CHECK(states_log_coordinates);
}

TEST_CASE("dp-gibo's noise on a log-scaled dimension is the linear one's: the sensitivity is the clipped estimate's") {
    // The same records on a linear and on a log-scaled box: the released gradient's noise (its
    // distance from the clipped average, an evaluation-only column) has the same scale 2B√T/(nμ).
    const arma::rowvec records = {-1.0, 0.0, 1.0, 0.5};
    LogQuadratic log_objective(records);
    const Parameters settings = {{"iterations", "200"},  {"mu", "0.5"},          {"clipping_bound", "0.5"},
                                 {"batch_size", "2"},    {"optimizer", "plain"}, {"lr", "0.01"},
                                 {"sweep_points", "16"}, {"local_starts", "0"}};
    const dpbo::RunResult result = run_dp_gibo(log_objective, settings, kPolynomial, 11);
    const double sigma = 2.0 * 0.5 * std::sqrt(200.0) / (4.0 * 0.5);
    const arma::vec noise = dpbo::test::trace_column(result.trace, "noise_norm");
    // In one dimension ‖w_t‖²/σ² is χ²(1): mean 1, standard deviation √2; over 200 steps the mean of
    // the ratios lies within 4·√(2/200) = 0.4 of 1.
    CHECK(arma::mean(arma::square(noise)) / (sigma * sigma) == doctest::Approx(1.0).epsilon(0.4));
}
