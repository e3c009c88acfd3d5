// `dpbo run` of private-search over threshold-count-trial end to end: serial and with --workers 2 the
// same seeded run releases the same trial (K and every trial are drawn before the first batch), and
// result.json releases only the selected trial under an (ε, δ) statement from the rdp accountant.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

nlohmann::json run_search(const std::string& out, const std::vector<std::string>& extra) {
    std::vector<std::string> arguments = {"run",
                                          "--algorithm",
                                          "private-search",
                                          "--objective",
                                          "threshold-count-trial",
                                          "--set",
                                          "objective.epsilon=0.5",
                                          "--set",
                                          "algorithm.count=fixed:k=6",
                                          "--set",
                                          "algorithm.batch=2",
                                          "--seed",
                                          "5",
                                          "--out",
                                          out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(std::filesystem::path(out) / "result.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("battery search: private-search selects the same trial serially and with --workers 2") {
    TemporaryDirectory serial_dir, parallel_dir;
    const auto serial = run_search(serial_dir.path() + "/out", {});
    const auto parallel = run_search(parallel_dir.path() + "/out", {"--workers", "2"});
    // K and every trial's hyperparameters are drawn from the selection's stream before the first batch,
    // so the same trial is selected; its score's noise is keyed per slice of the batch (each worker
    // its own trial stream), so the privatised score may differ.
    CHECK(serial["released"]["best_point"] == parallel["released"]["best_point"]);
    CHECK(serial["released"]["selected"] == parallel["released"]["selected"]);
    CHECK(serial["evaluations"] == 6);
    // Seeded, so what it would claim with secret noise: an RDP curve with its (ε, δ) equivalent.
    const auto& claim = serial["privacy"]["hypothetical"];
    CHECK(claim["notion"] == "Renyi DP");
    CHECK(claim["equivalent_epsilon_delta"].size() == 1);
    CHECK(claim["mechanism"].get<std::string>().find("selection of the best trial") != std::string::npos);
}

TEST_CASE("battery search: an objective whose trials are not private learners is refused with exit 2") {
    const auto r = run_dpbo({"run", "--algorithm", "private-search", "--objective", "quadratic", "--seed", "1"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("PrivateTrials") != std::string::npos);
}
