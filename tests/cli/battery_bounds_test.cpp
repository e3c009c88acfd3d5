// The hostile-input battery's cases of work bounded before it starts, overflow refused by name and
// keys named: each ran for minutes, crashed, or named a derived quantity instead of the key the
// user set.
#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Runs dpbo and returns its result with the wall-clock seconds it took. A case that hung before is
// given a timeout well above its bound, so that a regression fails on the bound, not the timeout.
struct Timed {
    dpbo::test::CommandResult result;
    double seconds = 0.0;
};
Timed timed_dpbo(const std::vector<std::string>& arguments) {
    const auto start = std::chrono::steady_clock::now();
    Timed timed{run_dpbo(arguments, {}, 300), 0.0};
    timed.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return timed;
}

// Generous for a loaded two-core machine; each case took over a minute before.
constexpr double kBoundSeconds = 30.0;

}  // namespace

TEST_CASE("battery bounds: account with a tiny noise multiplier answers a huge epsilon at once") {
    const Timed timed =
        timed_dpbo({"account", "--event", "subsampled-gaussian:q=0.01,sigma=1e-5,steps=10,sampling=poisson", "--delta",
                    "1e-5", "--json"});
    CAPTURE(timed.result.err);
    REQUIRE(timed.result.exit_code == 0);
    CHECK(timed.seconds < kBoundSeconds);
    const auto out = nlohmann::json::parse(timed.result.out);
    // Ten releases at σ = 1e-5 are not private at all: ε of order steps/(2σ²) = 5e10.
    CHECK(out["epsilon_delta"][0]["epsilon"].get<double>() > 1e10);
}

TEST_CASE("battery bounds: account with a huge noise multiplier answers a tiny epsilon at once") {
    // σ = 1000 searched orders up to ~10⁵ with every term of each order's sum (over a minute).
    const Timed timed =
        timed_dpbo({"account", "--event", "subsampled-gaussian:q=0.01,sigma=1000,steps=10,sampling=poisson", "--delta",
                    "1e-5", "--json"});
    CAPTURE(timed.result.err);
    REQUIRE(timed.result.exit_code == 0);
    CHECK(timed.seconds < kBoundSeconds);
    const double epsilon = nlohmann::json::parse(timed.result.out)["epsilon_delta"][0]["epsilon"].get<double>();
    CHECK(epsilon > 0.0);
    CHECK(epsilon < 1e-3);
}

TEST_CASE("battery bounds: calibrating sigma to an unreachable epsilon is refused at once, naming --epsilon") {
    const Timed timed =
        timed_dpbo({"account", "--calibrate-sigma", "--event", "subsampled-gaussian:q=0.01,steps=10,sampling=poisson",
                    "--epsilon", "1e-300", "--delta", "1e-5"});
    CHECK(timed.result.exit_code == 2);
    CHECK(timed.seconds < kBoundSeconds);
    CHECK(contains(timed.result.err, "--epsilon 1e-300"));
    CHECK(contains(timed.result.err, "sigma = 1e+06"));
    CHECK(contains(timed.result.err, "allowed: --epsilon >="));
}

TEST_CASE("battery bounds: dp-gibo refuses a batch or a dimension it cannot hold before evaluating anything") {
    dpbo::test::TemporaryDirectory out;
    const Timed batch = timed_dpbo({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set",
                                    "algorithm.batch_size=100000", "--seed", "1", "--out", out.path() + "/b"});
    CHECK(batch.result.exit_code == 2);
    CHECK(batch.seconds < kBoundSeconds);
    CHECK(contains(batch.result.err, "algorithm 'dp-gibo': batch_size = 100000"));
    CHECK(contains(batch.result.err, "GiB"));
    // std::bad_alloc before.
    const Timed dim = timed_dpbo({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set",
                                  "objective.dim=100000", "--seed", "1", "--out", out.path() + "/d"});
    CHECK(dim.result.exit_code == 2);
    CHECK(contains(dim.result.err, "dimension d = 100000 (e.g. objective.dim)"));
    CHECK(contains(dim.result.err, "GiB"));
    CHECK_FALSE(contains(dim.result.err, "bad_alloc"));
}

TEST_CASE("battery bounds: keys whose derived noise or sensitivity leaves the double range are named") {
    dpbo::test::TemporaryDirectory out;
    struct Case {
        std::vector<std::string> arguments;
        std::string named;
    };
    const std::vector<Case> cases = {
        {{"--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.mu=1e300"}, "mu = 1e+300"},
        {{"--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.clipping_bound=1e308"},
         "clipping_bound = 1e+308"},
        {{"--algorithm", "random-search", "--objective", "branin", "--mechanism", "laplace", "--set",
          "mechanism.epsilon=1", "--set", "algorithm.value_sensitivity=1e308"},
         "algorithm.value_sensitivity = 1e+308"},
    };
    int index = 0;
    for (const Case& c : cases) {
        std::vector<std::string> arguments = {"run"};
        arguments.insert(arguments.end(), c.arguments.begin(), c.arguments.end());
        arguments.insert(arguments.end(), {"--seed", "1", "--out", out.path() + "/" + std::to_string(index++)});
        const auto r = run_dpbo(arguments);
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, c.named));
        CHECK(contains(r.err, "llowed: "));
        // The derived quantities the old messages named alone.
        CHECK_FALSE(contains(r.err, "sensitivity = inf is not allowed"));
    }
}

TEST_CASE("battery bounds: an observation noise that cannot stay finite is refused by name, not reported as -inf") {
    dpbo::test::TemporaryDirectory out;
    const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--set",
                             "objective.noise_stddev=1e308", "--set", "algorithm.budget=50", "--seed", "1", "--out",
                             out.path() + "/n"});
    CAPTURE(r.out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "'noise_stddev' = '1e308'"));
    CHECK(contains(r.err, "[0, 1e+300]"));
    CHECK_FALSE(contains(r.out, "inf"));
}

TEST_CASE("battery bounds sweep: po-gp-ucb's norm_bound and dp-ucb's delta at the edge of the double range") {
    dpbo::test::TemporaryDirectory out;
    // norm_bound = 1e308: the scaled rows' squares overflowed and every released row was NaN.
    const auto norm =
        run_dpbo({"run", "--algorithm", "po-gp-ucb", "--objective", "loan-roi", "--set", "algorithm.norm_bound=1e308",
                  "--set", "algorithm.budget=7", "--set", "algorithm.initial_points=5", "--set",
                  "algorithm.write_released_rows=false", "--seed", "1", "--out", out.path() + "/p"});
    CHECK(norm.exit_code == 2);
    CHECK(contains(norm.err, "norm_bound = 1e+308"));
    CHECK(contains(norm.err, "allowed: norm_bound in (0, 1e+150]"));
    // delta = 1e-308: 3|Λ|/δ overflowed inside a logarithm and the selection refused "sensitivity = inf";
    // it is a legitimate (tiny) δ and the run goes through.
    const auto delta = run_dpbo({"run",
                                 "--algorithm",
                                 "dp-ucb",
                                 "--objective",
                                 "synthetic-gp",
                                 "--selection",
                                 "exponential",
                                 "--set",
                                 "algorithm.variant=noisy",
                                 "--set",
                                 "algorithm.epsilon=1",
                                 "--set",
                                 "algorithm.delta=1e-308",
                                 "--set",
                                 "algorithm.one_minus_k1=0.01",
                                 "--set",
                                 "algorithm.lengthscale=0.2",
                                 "--set",
                                 "algorithm.budget=4",
                                 "--set",
                                 "objective.dim=2",
                                 "--set",
                                 "objective.grid=10",
                                 "--set",
                                 "objective.lengthscale=0.2",
                                 "--set",
                                 "objective.noise_stddev=0.1",
                                 "--set",
                                 "selection.epsilon=1",
                                 "--seed",
                                 "1",
                                 "--out",
                                 out.path() + "/u"});
    CAPTURE(delta.err);
    CHECK(delta.exit_code == 0);
}
