#include <doctest/doctest.h>

#include <algorithm>
#include <set>

#include "dpbo/accountant.hpp"
#include "dpbo/algorithm.hpp"
#include "dpbo/acquisition.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/evaluator.hpp"
#include "dpbo/objective.hpp"
#include "dpbo/privacy_ledger.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/random.hpp"
#include "dpbo/surrogate.hpp"
#include "test_support.hpp"

namespace {

using Parameters = std::map<std::string, std::string>;

// Runs an algorithm with its declared default components, as `dpbo run` would.
dpbo::RunResult run(const std::string& algorithm, const Parameters& algorithm_parameters,
                    std::shared_ptr<dpbo::Objective> objective, std::uint64_t seed) {
    auto algo = dpbo::test::make<dpbo::Algorithm>(algorithm, algorithm_parameters);
    return dpbo::test::run_algorithm(*algo, *objective, seed);
}

double final_regret(const dpbo::RunResult& result) { return result.trace.last("simple_regret"); }

}  // namespace

TEST_CASE("gp-ucb reaches Branin's optimum within 1e-2 in at most 60 evaluations (median of 5 seeds)") {
    std::vector<double> regrets;
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
        const auto result = run("gp-ucb", {{"budget", "60"}}, dpbo::test::make<dpbo::Objective>("branin"), seed);
        CHECK(result.evaluations == 60);
        regrets.push_back(final_regret(result));
    }
    std::sort(regrets.begin(), regrets.end());
    CAPTURE(regrets);
    CHECK(regrets[2] <= 1e-2);
}

TEST_CASE("gp-ei improves on its initial design and reports a not-private statement") {
    const auto result = run("gp-ei", {{"budget", "40"}}, dpbo::test::make<dpbo::Objective>("branin"), 3);
    const auto& rows = result.trace.rows();
    const std::size_t best = result.trace.column_index("best_value");
    CHECK(rows.back()[best] < rows.front()[best]);
    CHECK(result.privacy.notion == dpbo::PrivacyNotion::NotPrivate);
    CHECK_NOTHROW(result.privacy.validate());
}

TEST_CASE("bo loop on a finite candidate set evaluates distinct rows and respects the budget") {
    auto objective = dpbo::test::make<dpbo::Objective>("synthetic-gp", {{"dim", "2"}, {"grid", "15"}, {"seed", "4"}});
    const auto result = run("gp-ucb", {{"budget", "30"}, {"initial_points", "5"}}, objective, 8);
    CHECK(result.evaluations == 30);
    const std::size_t x0 = result.trace.column_index("x[0]");
    std::set<std::pair<double, double>> seen;
    std::size_t evaluated = 0;
    for (const auto& row : result.trace.rows()) {
        if (row[0] == 0) continue;  // the design row records only its last point
        seen.insert({row[x0], row[x0 + 1]});
        ++evaluated;
    }
    CHECK(seen.size() == evaluated);
    CHECK(final_regret(result) >= 0.0);
}

TEST_CASE("bo loop parameters: an initial design larger than the budget is refused by name") {
    CHECK_THROWS_WITH_AS(dpbo::test::make<dpbo::Algorithm>("gp-ucb", {{"budget", "5"}, {"initial_points", "10"}}),
                         doctest::Contains("initial_points = 10 exceeds budget = 5"), dpbo::ValidationError);
}
