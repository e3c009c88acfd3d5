// dp-ucb through the `dpbo` command: Algorithm 3 refuses an objective without Kusner et al.'s
// Assumption-2 constants (exit 2, naming each one), a bad candidates file is refused naming the
// file and line, and Algorithm 1's statement says in its notion that it is conditional on
// Assumption 1. The selection is the shipped permute-and-flip.
#include <doctest/doctest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

TEST_CASE("cli dp-ucb: the lipschitz variant refuses an objective without the declared constants") {
    dpbo::test::TemporaryDirectory out;
    const auto r = run_dpbo({"run", "--algorithm", "dp-ucb", "--set", "algorithm.variant=lipschitz", "--set",
                             "algorithm.epsilon=1", "--objective", "quadratic", "--out", out.path() + "/run"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    for (const char* name : {"lipschitz", "gain_bound", "validation_records", "lambda_min", "lambda_max"})
        CHECK(r.err.find(name) != std::string::npos);
    CHECK(r.err.find("does not declare") != std::string::npos);
    CHECK(r.err.find("objective 'quadratic'") != std::string::npos);
}

TEST_CASE("cli dp-ucb: a candidates file is validated, errors name the file and line") {
    dpbo::test::TemporaryDirectory folder;
    const std::string file = folder.path() + "/candidates.csv";
    const auto run_with = [&](const std::string& content) {
        std::ofstream(file) << content;
        return run_dpbo({"run",
                         "--algorithm",
                         "dp-ucb",
                         "--set",
                         "algorithm.epsilon=1",
                         "--set",
                         "algorithm.delta=1e-4",
                         "--set",
                         "algorithm.one_minus_k1=0.01",
                         "--set",
                         "algorithm.lengthscale=0.2",
                         "--set",
                         "algorithm.candidates=" + file,
                         "--set",
                         "algorithm.budget=3",
                         "--objective",
                         "quadratic",
                         "--set",
                         "objective.dim=2",
                         "--set",
                         "objective.noise_stddev=0.1",
                         "--selection",
                         "permute-and-flip",
                         "--set",
                         "selection.epsilon=1",
                         "--seed",
                         "1",
                         "--out",
                         folder.path() + "/run",
                         "--json"});
    };
    const auto columns = run_with("# a comment\n0.1, 0.2\n0.3\n");
    CHECK(columns.exit_code == 2);
    CHECK(columns.err.find("candidates.csv', line 3: 1 column; the objective's space has dimension 2") !=
          std::string::npos);
    const auto number = run_with("0.1, nan\n");
    CHECK(number.exit_code == 2);
    CHECK(number.err.find("line 1, column 2: 'nan' is not a finite number") != std::string::npos);
    const auto outside = run_with("0.1, 1e9\n");
    CHECK(outside.exit_code == 2);
    CHECK(outside.err.find("line 1, column 2: 1000000000 lies outside the objective's box") != std::string::npos);
    const auto good = run_with("0.1, 0.2\n0.3, 0.4\n0.5, 0.5\n");
    CAPTURE(good.err);
    REQUIRE(good.exit_code == 0);
    const auto result = nlohmann::json::parse(good.out);
    const auto& claim = result["privacy"]["hypothetical"];
    CHECK(claim["notion"].get<std::string>().find("(epsilon, delta)-DP conditional on Assumption 1") == 0);
    CHECK(claim["epsilon"].get<double>() == doctest::Approx(2.0));
    CHECK(claim["delta"].get<double>() == doctest::Approx(2e-4));
}
