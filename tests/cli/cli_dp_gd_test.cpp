// `dpbo run` with the dp-gd baseline on huber-regression, end to end.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("cli run: dp-gd on huber-regression writes a mu-GDP result with evaluation-only figures apart") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--algorithm", "dp-gd", "--objective", "huber-regression", "--set",
                             "algorithm.mu=1", "--set", "algorithm.iterations=100", "--set",
                             "algorithm.clipping_bound=1", "--seed", "1", "--out", dir.path()});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out,
                   "privacy: not private (reproducible run: noise known to anyone with the seed; with secret "
                   "noise: 1-GDP)"));
    std::ifstream in(std::filesystem::path(dir.path()) / "result.json");
    const auto result = nlohmann::json::parse(in);
    CHECK(result["privacy"]["notion"] == "not private");
    const auto& privacy = result["privacy"]["hypothetical"];
    CHECK(privacy["notion"] == "mu-GDP");
    CHECK(std::abs(privacy["mu"].get<double>() - 1.0) <= 1e-12);
    REQUIRE(privacy["equivalent_epsilon_delta"].size() == 1);
    CHECK(privacy["equivalent_epsilon_delta"][0]["delta"] == 1e-5);
    CHECK(privacy["equivalent_epsilon_delta"][0]["epsilon"].get<double>() > 0.0);
    CHECK(contains(privacy["mechanism"].get<std::string>(), "100 releases"));
    CHECK(result["released"].contains("theta_final"));
    CHECK(result["released"]["theta_final"]["value"].size() == 4);
    CHECK(result["released"]["theta_path"]["value"].size() == 100);
    CHECK(result["evaluation_only"].contains("distance_to_optimum"));
    CHECK(result["evaluation_only"].contains("objective_value"));
    CHECK(result["objective"]["records"] == 100);
    CHECK(contains(result["objective"]["data"].get<std::string>(), "θ*"));
    CHECK(result["randomness"]["reproducible"] == true);
    CHECK(result["trace"]["rows"] == 100);
    bool noise_is_evaluation_only = false;
    for (const auto& column : result["trace"]["columns"])
        if (column["name"] == "noise_norm") noise_is_evaluation_only = column["evaluation_only"].get<bool>();
    CHECK(noise_is_evaluation_only);
    CHECK(std::filesystem::exists(std::filesystem::path(dir.path()) / "trace.csv"));
}

TEST_CASE("cli run: dp-gd refuses an objective without per-record data, with exit code 2") {
    TemporaryDirectory dir;
    const auto r =
        run_dpbo({"run", "--algorithm", "dp-gd", "--objective", "branin", "--seed", "1", "--out", dir.path()});
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "dp-gd"));
    CHECK(contains(r.err, "record"));
    CHECK(std::filesystem::is_empty(dir.path()));
}
