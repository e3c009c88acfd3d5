// DP-GIBO refuses, before its first evaluation, a run whose batches or dimension the machine cannot
// hold or finish (the hostile-input battery: batch_size = 100000 ran on unrefused, objective.dim =
// 100000 ended in std::bad_alloc), naming the setting; a feasible run is unaffected.
#include <chrono>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "dpbo/acquisition.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// The refusal's message, or "" when the run went through; with the seconds it took.
std::string refusal(const Parameters& algorithm, const Parameters& objective, double& seconds) {
    const auto start = std::chrono::steady_clock::now();
    auto module = dpbo::test::make<dpbo::Algorithm>("dp-gibo", algorithm);
    auto target = dpbo::test::make<dpbo::Objective>("normal-location", objective);
    dpbo::test::RunComponents components;
    components.roles["surrogate"] = dpbo::test::make<dpbo::Surrogate>("gp");
    components.roles["acquisition"] = dpbo::test::make<dpbo::Acquisition>("gibo-trace");
    std::string message;
    try {
        dpbo::test::run_algorithm(*module, *target, 1, components);
    } catch (const dpbo::ValidationError& error) {
        message = error.what();
    }
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return message;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("dp-gibo run size: a batch whose model cannot fit in memory is refused up front, naming batch_size") {
    double seconds = 0.0;
    const std::string message = refusal({{"batch_size", "100000"}}, {}, seconds);
    CAPTURE(message);
    CHECK(contains(message, "batch_size = 100000"));
    CHECK(contains(message, "iterations = 25"));
    CHECK(contains(message, "GiB"));
    CHECK(seconds < 10.0);  // before any evaluation (it ran on unrefused)
}

TEST_CASE("dp-gibo run size: a batch that fits but would take days is refused by its work estimate") {
    // b = 1000, T = 25, d = 5: the model reaches 24 000 points (4.6 GB, fits); choosing the batches
    // costs about b³T³m/3 ≈ 3e15 operations, 30 times the limit.
    double seconds = 0.0;
    const std::string message = refusal({{"batch_size", "1000"}}, {}, seconds);
    CAPTURE(message);
    CHECK(contains(message, "batch_size = 1000"));
    CHECK(contains(message, "floating-point operations"));
    CHECK(contains(message, "the limit is 1e+14"));
}

TEST_CASE("dp-gibo run size: a dimension whose candidates cannot fit is refused naming the dimension") {
    double seconds = 0.0;
    const std::string message = refusal({{"batch_size", "2"}, {"iterations", "1"}}, {{"dim", "100000"}}, seconds);
    CAPTURE(message);
    CHECK(contains(message, "dimension d = 100000"));
    CHECK(contains(message, "objective.dim"));
    CHECK(contains(message, "GiB"));
}

TEST_CASE("dp-gibo run size: the default batch d + 1 of a large dimension is named as such") {
    double seconds = 0.0;
    const std::string message = refusal({}, {{"dim", "2000"}}, seconds);
    CAPTURE(message);
    CHECK(contains(message, "default batch of d + 1 = 2001"));
    CHECK(contains(message, "set batch_size or max_batch"));
}

TEST_CASE("dp-gibo run size: a feasible large batch still runs") {
    double seconds = 0.0;
    CHECK(refusal({{"batch_size", "30"}, {"iterations", "2"}}, {}, seconds).empty());
}

TEST_CASE("dp-gibo run size: a bias_tolerance the model without points already meets is refused by name") {
    // It made every batch empty: the centring divided 0 by 0 and the run failed blaming the objective
    // for a NaN gradient.
    double seconds = 0.0;
    const std::string message = refusal({{"bias_tolerance", "1e308"}, {"iterations", "2"}}, {}, seconds);
    CAPTURE(message);
    CHECK(contains(message, "bias_tolerance = 1e+308"));
    CHECK(contains(message, "allowed: bias_tolerance below"));
}
