// dpbo audit on the two row releases, on a dataset and its neighbour with one row moved by 1: the
// published random projection is refuted (its release lies in the span of its own input, which one
// release tells apart from the neighbour's), the noisy projection is not.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

TEST_CASE("cli audit: random-projection's (ε, δ)-DP claim is refuted, noisy-projection's is not") {
    const auto refuted = run_dpbo({"audit", "--release", "random-projection", "--set", "release.epsilon=3", "--runs",
                                   "2000", "--seed", "1", "--json"});
    CAPTURE(refuted.err);
    CHECK(refuted.exit_code == 3);
    const auto report = nlohmann::json::parse(refuted.out);
    CHECK(report["claim"]["headline"] == "(3, 1e-05)-DP");
    CHECK(report["refuted"] == true);
    CHECK(report["lower_bound"]["epsilon"].get<double>() > 3.0);
    CHECK(report["best"]["event"].get<std::string>().find("residual outside span") != std::string::npos);

    const auto kept = run_dpbo({"audit", "--release", "noisy-projection", "--set", "release.epsilon=3", "--runs",
                                "2000", "--seed", "1", "--json"});
    CAPTURE(kept.err);
    CHECK(kept.exit_code == 0);
    CHECK(nlohmann::json::parse(kept.out)["refuted"] == false);

    const auto misuse = run_dpbo({"audit", "--release", "noisy-projection", "--value", "2"});
    CHECK(misuse.exit_code == 2);
    CHECK(misuse.err.find("--value applies to mechanism audits") != std::string::npos);
}
