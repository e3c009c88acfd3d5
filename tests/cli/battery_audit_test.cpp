// `dpbo audit` accounts its runs per world: each run is one release of the claim under test, charged on
// a ledger of its own, so an (ε, δ) claim can be audited with more runs than 1/δ. Before, every run of
// a world was composed in one basic ledger and the audit stopped with exit 2 once N·δ reached 1
// ("basic composition then guarantees nothing"). The cases below run at N > 1/δ in every audit mode
// (mechanism, row release, algorithm), show that a claim that holds still holds (exit 0) and that a
// false claim is still refuted (exit 3): the fix changes the accounting, not the auditor's power.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

struct AuditOutcome {
    int exit_code = -1;
    nlohmann::json report;
};

AuditOutcome audit(std::vector<std::string> arguments) {
    arguments.insert(arguments.end(), {"--seed", "29", "--json"});
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    REQUIRE_MESSAGE((r.exit_code == 0 || r.exit_code == 3), "audit ended with exit " << r.exit_code << ": " << r.err);
    return {r.exit_code, nlohmann::json::parse(r.out)};
}

// Grid search's three noisy values on normal-location (d = 1, n = 8, θ ∈ [−5, 5]) with record 0
// replaced by −10 in D′: a value is the mean of ½(x_i − θ)², so it moves by at most
// ½·(5 + 10)²/8 ≈ 14.1 — 15 is a true per-value sensitivity, 0.1 understates it 150-fold.
std::vector<std::string> grid_search(const std::string& value_sensitivity, const std::string& runs) {
    return {"audit",
            "--algorithm",
            "grid-search",
            "--objective",
            "normal-location",
            "--set",
            "objective.dim=1",
            "--set",
            "objective.records=8",
            "--set",
            "algorithm.per_dimension=3",
            "--mechanism",
            "gaussian",
            "--set",
            "mechanism.epsilon=1",
            "--set",
            "mechanism.delta=1e-2",
            "--set",
            "algorithm.value_sensitivity=" + value_sensitivity,
            "--neighbour",
            "objective.neighbour_record=0",
            "--runs",
            runs};
}

}  // namespace

TEST_CASE("battery audit: a mechanism's (ε, δ) claim is audited at more runs than 1/δ and holds") {
    // δ = 1e-2 at 300 runs (3/δ), and the case: δ = 1e-3 at 3000 runs.
    for (const auto& [delta, runs] : {std::pair{"1e-2", "300"}, std::pair{"1e-3", "3000"}}) {
        CAPTURE(delta);
        const AuditOutcome out = audit({"audit", "--mechanism", "gaussian", "--set", "mechanism.epsilon=1", "--set",
                                        std::string("mechanism.delta=") + delta, "--runs", runs});
        CHECK(out.exit_code == 0);
        CHECK(out.report["refuted"] == false);
        CHECK(out.report["runs_per_world"] == std::stoi(runs));
        // The claim audited is one release's, whatever the number of runs.
        CHECK(out.report["claim"]["epsilon"].get<double>() == 1.0);
        CHECK(out.report["claim"]["delta"].get<double>() == std::stod(delta));
        CHECK(out.report["lower_bound"]["epsilon"].get<double>() <= 1.0);
    }
}

TEST_CASE("battery audit: a row release's (ε, δ) claim is audited at more runs than 1/δ, true or false") {
    // noisy-projection keeps its (2, 1e-2) claim; random-projection's (1, 1e-2) claim is false (its
    // release stays in the span of its own rows) and is refuted at the same run count.
    const AuditOutcome holds = audit({"audit", "--release", "noisy-projection", "--set", "release.epsilon=2", "--set",
                                      "release.delta=1e-2", "--set", "release.r=0", "--runs", "300"});
    CHECK(holds.exit_code == 0);
    CHECK(holds.report["claim"]["headline"] == "(2, 0.01)-DP");
    const AuditOutcome refuted = audit({"audit", "--release", "random-projection", "--set", "release.epsilon=1",
                                        "--set", "release.delta=1e-2", "--set", "release.r=2", "--runs", "300"});
    CHECK(refuted.exit_code == 3);
    CHECK(refuted.report["refuted"] == true);
    CHECK(refuted.report["claim"]["headline"] == "(1, 0.01)-DP");
}

TEST_CASE("battery audit: an algorithm's (ε, δ) claim at more runs than 1/δ holds, and an understated one is refuted") {
    const AuditOutcome holds = audit(grid_search("15", "300"));
    CHECK(holds.exit_code == 0);
    CHECK(holds.report["claim"]["headline"] == "(1, 0.01)-DP");
    const AuditOutcome understated = audit(grid_search("0.1", "300"));
    CHECK(understated.exit_code == 3);
    CHECK(understated.report["lower_bound"]["epsilon"].get<double>() > 1.0);
}

TEST_CASE("battery audit: dp-ucb over a table's own rows ends in exit 2 (refused), never 3, both variants") {
    // The audit: D and D′ differ in one row's features. With Λ = the rows, λ̃ was a row of the
    // data and γ_T, the Laplace scale and |Λ| were computed from them: the audit refuted the claimed
    // (2, 2e-4) with ε ≥ 7.46 (noisy) and ε ≥ 3.22 (noise-free). Now the run is refused before any release.
    dpbo::test::TemporaryDirectory dir;
    const std::string data = dir.path() + "/rows.csv";
    const std::string neighbour = dir.path() + "/neighbour-rows.csv";
    std::ofstream(data) << "x,y,v\n0.1,0.2,1.0\n0.5,0.9,2.0\n0.8,0.3,3.0\n0.3,0.6,1.5\n";
    std::ofstream(neighbour) << "x,y,v\n0.1,0.2,1.0\n0.5,0.9,2.0\n0.8,0.3,3.0\n0.7,0.1,1.5\n";
    const std::vector<std::string> common = {"audit",
                                             "--algorithm",
                                             "dp-ucb",
                                             "--objective",
                                             "table",
                                             "--set",
                                             "objective.file=" + data,
                                             "--set",
                                             "objective.columns=x,y",
                                             "--set",
                                             "objective.response=v",
                                             "--set",
                                             "objective.bounds=0:1,0:1",
                                             "--set",
                                             "algorithm.epsilon=1",
                                             "--set",
                                             "algorithm.delta=1e-4",
                                             "--set",
                                             "algorithm.one_minus_k1=0.1",
                                             "--set",
                                             "algorithm.lengthscale=0.3",
                                             "--set",
                                             "algorithm.budget=3",
                                             "--set",
                                             "algorithm.candidates=objective",
                                             "--neighbour",
                                             "objective.file=" + neighbour,
                                             "--runs",
                                             "200",
                                             "--seed",
                                             "29"};
    const std::vector<std::vector<std::string>> variants = {
        {"--set", "algorithm.variant=noisy", "--set", "objective.noise_stddev=0.1"},
        {"--set", "algorithm.variant=noise-free", "--set", "algorithm.A=1", "--set", "algorithm.tau=1"}};
    for (const auto& variant : variants) {
        std::vector<std::string> arguments = common;
        arguments.insert(arguments.end(), variant.begin(), variant.end());
        CAPTURE(variant[1]);
        const auto r = run_dpbo(arguments);
        CAPTURE(r.out);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("algorithm.candidates = objective") != std::string::npos);
        CHECK(r.err.find("sensitive data") != std::string::npos);
    }
}

TEST_CASE("battery audit: a private grid or random search over a table's own rows ends in exit 2") {
    // Their best point would be a row of the data, released as it is under a statement that assumes
    // points chosen independently of the data. Without a mechanism the run is allowed (stated not private).
    dpbo::test::TemporaryDirectory dir;
    const std::string data = dir.path() + "/rows.csv";
    std::ofstream(data) << "x,y,v\n0.1,0.2,1.0\n0.5,0.9,2.0\n0.8,0.3,3.0\n0.3,0.6,1.5\n";
    const std::vector<std::string> table = {"--objective", "table",
                                            "--set",       "objective.file=" + data,
                                            "--set",       "objective.columns=x,y",
                                            "--set",       "objective.response=v",
                                            "--set",       "objective.bounds=0:1,0:1"};
    for (const std::string algorithm : {"grid-search", "random-search"}) {
        CAPTURE(algorithm);
        std::vector<std::string> arguments = {"run", "--algorithm", algorithm};
        arguments.insert(arguments.end(), table.begin(), table.end());
        std::vector<std::string> private_run = arguments;
        private_run.insert(private_run.end(), {"--mechanism", "laplace", "--set", "mechanism.epsilon=1", "--set",
                                               "algorithm.value_sensitivity=1", "--seed", "1"});
        const auto refused = run_dpbo(private_run);
        CHECK(refused.exit_code == 2);
        CHECK(refused.err.find("sensitive data") != std::string::npos);
        CHECK(refused.err.find("best_point would be one of them") != std::string::npos);
        arguments.insert(arguments.end(), {"--seed", "1", "--out", dir.path() + "/" + algorithm});
        const auto exact = run_dpbo(arguments);
        CAPTURE(exact.err);
        CHECK(exact.exit_code == 0);
    }
}
