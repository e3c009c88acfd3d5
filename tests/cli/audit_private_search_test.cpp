// `dpbo audit` on private selection among private trials private-search over the
// Laplace-scored threshold-count-trial with geometric K stays within its claim; the deliberately
// unaccounted best of a fixed k (tests/test_plugins/unaccounted_best_of_k.cpp), which charges one
// trial's ε for k trials, is refuted.
#include <string>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

using dpbo::test::run_dpbo;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("audit private-search: geometric K over an ε = 0.5 Laplace trial stays within its claim") {
    const auto r =
        run_dpbo({"audit", "--algorithm", "private-search", "--objective", "threshold-count-trial", "--set",
                  "objective.records=10", "--set", "objective.epsilon=0.5", "--set", "algorithm.count=geometric:mean=4",
                  "--neighbour", "objective.neighbour_record=0", "--runs", "4000", "--seed", "3", "--json"});
    CAPTURE(r.err);
    CAPTURE(r.out);
    REQUIRE(r.exit_code == 0);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["refuted"] == false);
    CHECK(out["lower_bound"]["epsilon"].get<double>() <= out["claim"]["epsilon"].get<double>());
}

TEST_CASE("audit private-search: the best of a fixed k charged as one trial is refuted") {
    // One trial claims (α, ε(α))-RDP of Laplace at ε = 1; the best of k = 4 is 4-DP in its lower tail,
    // where P(best ≤ t) carries the ratio e^{kε} with probability about 2^-k: clear at 4000 runs.
    const auto r = run_dpbo({"audit",
                             "--algorithm",
                             "unaccounted-best-of-k",
                             "--objective",
                             "threshold-count-trial",
                             "--set",
                             "objective.records=10",
                             "--set",
                             "objective.epsilon=1",
                             "--set",
                             "algorithm.k=4",
                             "--neighbour",
                             "objective.neighbour_record=0",
                             "--runs",
                             "4000",
                             "--seed",
                             "3",
                             "--json",
                             "--plugin-path",
                             DPBO_TEST_FLAWED_PLUGIN_DIR});
    CAPTURE(r.err);
    CAPTURE(r.out);
    REQUIRE(r.exit_code == 3);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["refuted"] == true);
    CHECK(out["lower_bound"]["epsilon"].get<double>() > out["claim"]["epsilon"].get<double>());
    CHECK(contains(out["best"]["event"].get<std::string>(), "best_score"));
}
