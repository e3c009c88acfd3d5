// The hostile-input battery: a derived noise scale or sensitivity out of range is refused naming
// the keys the user set (mu, epsilon, clipping_bound, value_sensitivity) with the values that work,
// and observation noise that would make an observation non-finite is refused by name instead of
// read as a number.
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>
#include <doctest/doctest.h>

#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluation.hpp"
#include "dpbo/mechanism.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/random.hpp"
#include "dpbo/row_release.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

template <class Call>
std::string validation_message(Call&& call) {
    try {
        call();
    } catch (const dpbo::ValidationError& error) {
        return error.what();
    }
    return "";
}

std::string refusal_of_run(const std::string& algorithm, const Parameters& parameters, const std::string& objective,
                           const std::string& mechanism = "", const Parameters& mechanism_parameters = {}) {
    auto module = dpbo::test::make<dpbo::Algorithm>(algorithm, parameters);
    auto target = dpbo::test::make<dpbo::Objective>(objective);
    dpbo::test::RunComponents components;
    if (!mechanism.empty())
        components.roles["mechanism"] = dpbo::test::make<dpbo::Mechanism>(mechanism, mechanism_parameters);
    return validation_message([&] { dpbo::test::run_algorithm(*module, *target, 1, components); });
}

}  // namespace

TEST_CASE("battery bounds: a gradient noise out of the sampler's range names clipping_bound and mu") {
    // clipping_bound = 1e308 overflowed 2B/n to inf ("sensitivity = inf is not allowed"); mu = 1e300
    // made σ subnormal ("sigma = 2e-301 is too small"). Both now name the keys and their ranges.
    const std::string large = refusal_of_run("dp-gd", {{"clipping_bound", "1e308"}}, "normal-location");
    CAPTURE(large);
    CHECK(contains(large, "clipping_bound = 1e+308"));
    CHECK(contains(large, "too large"));
    CHECK(contains(large, "Allowed: clipping_bound in ["));
    const std::string small = refusal_of_run("dp-gibo", {{"mu", "1e300"}, {"batch_size", "2"}}, "normal-location");
    CAPTURE(small);
    CHECK(contains(small, "mu = 1e+300"));
    CHECK(contains(small, "too small"));
    CHECK(contains(small, "or mu in ["));
}

TEST_CASE("battery bounds: the mechanisms name their own key and the values that work") {
    auto gaussian = dpbo::test::make<dpbo::Mechanism>("gaussian", {{"mu", "1e308"}});
    const std::string tiny = validation_message([&] { gaussian->calibrate(0.5); });
    CAPTURE(tiny);
    CHECK(contains(tiny, "mu = 1e+308"));
    CHECK(contains(tiny, "Allowed: mu in ["));
    CHECK_FALSE(gaussian->calibrated());
    auto laplace = dpbo::test::make<dpbo::Mechanism>("laplace", {{"epsilon", "1e-308"}});
    const std::string huge = validation_message([&] { laplace->calibrate(0.5); });
    CAPTURE(huge);
    CHECK(contains(huge, "epsilon = 1e-308"));
    CHECK(contains(huge, "too large"));
    CHECK(contains(huge, "Allowed: epsilon in ["));
    CHECK_FALSE(laplace->calibrated());
}

TEST_CASE("battery bounds: a value_sensitivity whose vector sensitivity overflows is refused by that key, up front") {
    const std::string message = refusal_of_run("random-search", {{"budget", "5"}, {"value_sensitivity", "1e308"}},
                                               "branin", "laplace", {{"epsilon", "1"}});
    CAPTURE(message);
    CHECK(contains(message, "algorithm.value_sensitivity = 1e+308"));
    CHECK(contains(message, "allowed: algorithm.value_sensitivity <= 3.59539e+307 for k = 5"));
    // A tiny one: the mechanism's refusal, under the key the user set.
    const std::string tiny = refusal_of_run("grid-search", {{"per_dimension", "2"}, {"value_sensitivity", "1e-300"}},
                                            "branin", "gaussian", {{"mu", "1"}});
    CAPTURE(tiny);
    CHECK(contains(tiny, "algorithm.value_sensitivity = 1e-300"));
    CHECK(contains(tiny, "Allowed: mu in"));
}

TEST_CASE("battery bounds: noise_stddev is bounded so that observations stay finite") {
    const std::string message = validation_message([] {
        (void)dpbo::test::make<dpbo::Objective>("branin", {{"noise_stddev", "1e308"}});
    });
    CAPTURE(message);
    CHECK(contains(message, "noise_stddev"));
    CHECK(contains(message, "1e+300"));
}

TEST_CASE("battery bounds: an observation made non-finite by its noise is refused, naming noise_stddev") {
    // Values at the top of the double range: half of the noise draws push them to +inf. Before, the
    // evaluator returned the infinities and a search reported −inf as its best value.
    arma::mat values(8, 1, arma::fill::value(std::numeric_limits<double>::max()));
    dpbo::ExperimentRng rng(5);
    dpbo::EvaluationRequest request;
    request.rng = &rng;
    try {
        dpbo::add_observation_noise(values, 1e300, request, "objective 'test'");
        FAIL("non-finite observations were returned");
    } catch (const dpbo::RunError& error) {
        const std::string message = error.what();
        CAPTURE(message);
        CHECK(contains(message, "objective 'test'"));
        CHECK(contains(message, "noise_stddev = 1e+300"));
        CHECK(contains(message, "non-finite"));
    }
    // Finite observations pass unchanged in kind.
    arma::mat fine(8, 1, arma::fill::value(1.0));
    dpbo::add_observation_noise(fine, 1e300, request, "objective 'test'");
    CHECK(fine.is_finite());
}

TEST_CASE("battery bounds sweep: extreme real keys of the objectives are refused by name at creation") {
    // Found by setting every real key of every shipped module to ±1e308, 1e-308 and 1e-300: each of
    // these ended in an infinite value (exit 1, naming the value), NaN kernel values or a box whose
    // width overflowed, instead of naming the key.
    struct Case {
        std::string objective;
        Parameters parameters;
        std::string named;
    };
    const std::vector<Case> cases = {
        {"quadratic", {{"lower", "-1e308"}}, "lower = -1e+308"},
        {"rosenbrock", {{"upper", "1e308"}}, "upper = 1e+308"},
        {"synthetic-gp", {{"lengthscale", "1e-300"}}, "lengthscale = 1e-300"},
        {"synthetic-gp", {{"upper", "1e-308"}}, "upper = 1e-308"},
        {"gp-lengthscales", {{"input_range", "1e308"}}, "'input_range' = '1e308'"},
        {"gp-lengthscales", {{"data_noise", "1e308"}}, "'data_noise' = '1e308'"},
        {"normal-location", {{"bound", "1e308"}}, "'bound' = '1e308'"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.objective);
        const std::string message =
            validation_message([&] { (void)dpbo::test::make<dpbo::Objective>(c.objective, c.parameters); });
        CAPTURE(message);
        CHECK(contains(message, c.named));
        CHECK((contains(message, "allowed") || contains(message, "expected a real in")));
    }
}

TEST_CASE("battery bounds sweep: random-projection names epsilon when its omega would overflow") {
    auto release = dpbo::test::make<dpbo::RowRelease>("random-projection", {{"epsilon", "1e-300"}});
    const std::string message = validation_message([&] { release->calibrate(1.0); });
    CAPTURE(message);
    CHECK(contains(message, "epsilon = 1e-300"));
    CHECK(contains(message, "allowed: epsilon >="));
    CHECK_FALSE(release->calibrated());
    // δ = 1e-308 made 16r/δ overflow inside the logarithm; it is a legitimate (tiny) δ.
    auto tiny_delta = dpbo::test::make<dpbo::RowRelease>("random-projection", {{"delta", "1e-308"}});
    tiny_delta->calibrate(1.0);
    CHECK(tiny_delta->calibrated());
}
