// `dpbo audit` end to end: it refutes a deliberately leaky mechanism (the auditor has power), its
// algorithm audits are reproducible with --seed, and bad input is refused with exit code 2 and a
// message naming the option, key or value.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A tiny DP-GIBO job on normal-location: 1 step, 2 dimensions, 8 records.
const std::vector<std::string> kTinyDpGibo = {"audit",
                                              "--algorithm",
                                              "dp-gibo",
                                              "--objective",
                                              "normal-location",
                                              "--set",
                                              "objective.dim=2",
                                              "--set",
                                              "objective.records=8",
                                              "--set",
                                              "algorithm.iterations=1",
                                              "--set",
                                              "algorithm.optimizer=plain",
                                              "--set",
                                              "algorithm.lr=0.5"};

std::vector<std::string> plus(std::vector<std::string> base, const std::vector<std::string>& more) {
    base.insert(base.end(), more.begin(), more.end());
    return base;
}

void check_refused(const std::vector<std::string>& arguments, const std::string& part) {
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    CAPTURE(r.out);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, part));
}

}  // namespace

TEST_CASE("cli audit: floating-point Laplace noise is refuted (exit 3) through its representation") {
    // leaky-laplace adds b·(log U − log U′) in floating point, claiming 1-DP. The audit's 20000
    // evaluation releases per world can show up to ε ≈ ln(20000 / ln(160)) ≈ 8.2.
    const auto r = run_dpbo({"audit", "--mechanism", "leaky-laplace", "--set", "mechanism.epsilon=1", "--runs", "40000",
                             "--seed", "1", "--json", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR});
    CAPTURE(r.err);
    CAPTURE(r.out);
    REQUIRE(r.exit_code == 3);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out["refuted"] == true);
    CHECK(out["claim"]["headline"] == "1-DP");
    CHECK(out["lower_bound"]["epsilon"].get<double>() > 3.0);
    CHECK_FALSE(contains(out["best"]["event"].get<std::string>(), "value"));

    const auto text = run_dpbo({"audit", "--mechanism", "leaky-laplace", "--set", "mechanism.epsilon=1", "--runs",
                                "40000", "--seed", "1", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR});
    CHECK(text.exit_code == 3);
    CHECK(contains(text.out, "claim REFUTED"));
    CHECK(contains(text.out, "best event"));
}

TEST_CASE("cli audit: an algorithm audit with --seed is reproducible and names its neighbour") {
    const auto arguments =
        plus(kTinyDpGibo, {"--neighbour", "objective.neighbour_record=3", "--runs", "60", "--seed", "4", "--json"});
    const auto first = run_dpbo(arguments);
    CAPTURE(first.err);
    REQUIRE(first.exit_code != 2);
    const auto again = run_dpbo(arguments);
    const auto a = nlohmann::json::parse(first.out);
    const auto b = nlohmann::json::parse(again.out);
    CHECK(a["lower_bound"] == b["lower_bound"]);
    CHECK(a["events"] == b["events"]);
    CHECK(a["claim"]["headline"] == "1-GDP");
    CHECK(a["subject"]["neighbour"]["objective.neighbour_record"] == "3");
    // θ_T (2) and the one trace row's public columns: iteration, evaluations so far, θ (2), batch
    // size, points in the model, gradient trace and released norm (8); no evaluation-only column.
    CHECK(a["coordinates"]["released"] == 2 + 8);
}

TEST_CASE("cli audit: bad input is refused with exit code 2, naming what is wrong") {
    check_refused({"audit"}, "--mechanism");
    check_refused({"audit", "--mechanism", "gausian", "--set", "mechanism.mu=1"}, "gaussian");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--runs", "0"}, "--runs '0'");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--runs", "-5"}, "--runs '-5'");
    check_refused(
        {"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--runs", "6", "--confidence", "0.999"},
        "too few");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--delta", "1"}, "--delta 1");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--confidence", "1.5"},
                  "--confidence 1.5");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--sensitivity", "0"},
                  "--sensitivity 0");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=-1"}, "mu");
    check_refused({"audit", "--mechanism", "gaussian", "--set", "mechanism.mu=1", "--set", "objective.dim=2"},
                  "only mechanism.KEY=VALUE");
    check_refused(kTinyDpGibo, "--neighbour");
    check_refused(plus(kTinyDpGibo, {"--neighbour", "objective.neighbour_record=-1"}), "does not change");
    check_refused(plus(kTinyDpGibo, {"--neighbour", "algorithm.mu=2"}), "objective.KEY=VALUE");
    check_refused(plus(kTinyDpGibo, {"--neighbour", "objective.neighbour_record=8"}), "neighbour_record = 8");
    check_refused(plus(kTinyDpGibo, {"--neighbour", "objective.neighbour_record=0", "--sensitivity", "2"}),
                  "--sensitivity");
    check_refused(
        {"audit", "--algorithm", "random-search", "--objective", "quadratic", "--neighbour", "objective.dim=3"},
        "no privacy claim");
}

TEST_CASE("cli audit: a selection audit's scores are checked, each error named") {
    const std::vector<std::string> base = {"audit", "--selection", "exponential", "--set", "selection.epsilon=1"};
    check_refused(base, "--scores");
    check_refused(plus(base, {"--scores", "0,1,2"}), "--neighbour-scores");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0"}), "--scores has 3 entries and");
    check_refused(plus(base, {"--scores", "0,x,2", "--neighbour-scores", "1,0,2"}), "--scores entry 2 ('x')");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,inf"}),
                  "--neighbour-scores entry 3 ('inf')");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,4"}),
                  "score 3 moves from 2 (--scores) to 4 (--neighbour-scores), by more than --sensitivity 1");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,2", "--value", "3"}), "--value");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,2", "--sensitivity", "-1"}),
                  "--sensitivity -1");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,2", "--mechanism", "laplace"}),
                  "one release at a time");
    check_refused(plus(base, {"--scores", "0,1,2", "--neighbour-scores", "1,0,2", "--set", "mechanism.epsilon=1"}),
                  "only selection.KEY=VALUE");
    check_refused({"audit", "--mechanism", "laplace", "--set", "mechanism.epsilon=1", "--scores", "0,1"},
                  "--scores applies to selection audits");
    check_refused({"audit", "--selection", "exponential", "--scores", "0,1", "--neighbour-scores", "1,0"}, "epsilon");
}

TEST_CASE("cli audit: 'dpbo --help' lists the command and its exit code 3") {
    const auto r = run_dpbo({"--help"});
    CHECK(r.exit_code == 0);
    CHECK(contains(r.out, "audit"));
    CHECK(contains(r.out, "3 (audit) claim refuted"));
    const auto help = run_dpbo({"audit", "--help"});
    CHECK(help.exit_code == 0);
    CHECK(contains(help.out, "--neighbour"));
}
