// `dpbo run --budget`: the release that would exceed the budget is refused, the run exits non-zero
// naming the budget and where the partial result is, and that result lists what was released.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/accountant.hpp"
#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// DP-GD with T = 9 steps at μ = 0.9: each release is 0.3-GDP, so a budget of μ = 0.5 admits two
// (√2·0.3 ≈ 0.42) and refuses the third (√3·0.3 ≈ 0.52).
std::vector<std::string> dp_gd(const std::string& out, const std::string& budget) {
    return {"run",
            "--algorithm",
            "dp-gd",
            "--objective",
            "huber-regression",
            "--set",
            "algorithm.mu=0.9",
            "--set",
            "algorithm.iterations=9",
            "--seed",
            "4",
            "--budget",
            budget,
            "--out",
            out};
}

nlohmann::json read_result(const std::string& dir) {
    std::ifstream in(std::filesystem::path(dir) / "result.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("cli run --budget: the refused run exits 1 and writes what was released before the refusal") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(dp_gd(dir.path(), "mu=0.5"));
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "mu=0.5"));
    CHECK(contains(r.err, "'gradient at step 3'"));
    CHECK(contains(r.err, (std::filesystem::path(dir.path()) / "result.json").string()));

    const auto result = read_result(dir.path());
    CHECK(result["status"] == "refused");
    CHECK(result["stop_reason"] == "budget");
    CHECK(result["job"]["budget"] == "mu=0.5");
    CHECK(result["budget"]["releases_made"] == 2);
    REQUIRE(result["released"].size() == 2);
    for (const char* name : {"release_1", "release_2"}) {
        CAPTURE(name);
        CHECK(result["released"][name]["value"].size() == 4);  // one noisy gradient in d = 4
        CHECK(contains(result["released"][name]["description"].get<std::string>(), "gdp (mu = 0.3"));
    }
    CHECK(contains(result["released"]["release_2"]["description"].get<std::string>(), "gradient at step 2"));
    // Seeded, so the claim is hypothetical; it is the composition of the two releases, no more.
    const auto& claim = result["privacy"]["hypothetical"];
    CHECK(claim["notion"] == "mu-GDP");
    auto fresh = dpbo::test::make<dpbo::Accountant>("gdp");
    fresh->compose({dpbo::GdpEvent{0.9 / 3.0}, 2});
    CHECK(claim["mu"].get<double>() == fresh->total().mu);
    CHECK(claim["released"].size() == 2);
    CHECK(claim["neighbouring"] == "replace one record");
}

TEST_CASE("cli run --budget: a budget the run fits completes and its statement says it was enforced") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(dp_gd(dir.path(), "mu=0.9"));
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = read_result(dir.path());
    CHECK_FALSE(result.contains("status"));
    CHECK(std::abs(result["privacy"]["hypothetical"]["mu"].get<double>() - 0.9) <= 1e-15);
    bool enforced = false;
    for (const auto& a : result["privacy"]["hypothetical"]["assumptions"])
        enforced = enforced || contains(a.get<std::string>(), "the budget mu=0.9 was enforced");
    CHECK(enforced);

    // The budget is part of the job: another budget in the same folder is another job.
    const auto other = run_dpbo(dp_gd(dir.path(), "mu=1"));
    CHECK(other.exit_code == 2);
    CHECK(contains(other.err, "different job"));
}

TEST_CASE("cli run --budget: an (epsilon, delta) budget, a config file key, and bad budgets") {
    TemporaryDirectory dir;
    // √9·0.3 = 0.9-GDP is (ε, 1e-5)-DP only from ε ≈ 3.6 on: ε = 2 refuses a release along the way.
    const auto tight = run_dpbo(dp_gd(dir.path() + "/tight", "epsilon=2,delta=1e-5"));
    CHECK(tight.exit_code == 1);
    CHECK(contains(tight.err, "epsilon=2,delta=1e-05"));

    const std::string config = dir.path() + "/job.ini";
    std::ofstream(config) << "algorithm = dp-gd\nobjective = huber-regression\nseed = 4\nbudget = mu=0.5\n"
                          << "[algorithm]\nmu = 0.9\niterations = 9\n";
    const auto from_file = run_dpbo({"run", "--config", config, "--out", dir.path() + "/config"});
    CHECK(from_file.exit_code == 1);
    CHECK(read_result(dir.path() + "/config")["job"]["budget"] == "mu=0.5");

    const auto mixed = run_dpbo(dp_gd(dir.path() + "/bad", "mu=1,epsilon=1"));
    CHECK(mixed.exit_code == 2);
    CHECK(contains(mixed.err, "cannot be mixed"));
    const auto unknown = run_dpbo(dp_gd(dir.path() + "/bad", "rho=1"));
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "unknown key 'rho'"));
    CHECK_FALSE(std::filesystem::exists(dir.path() + "/bad"));
}
