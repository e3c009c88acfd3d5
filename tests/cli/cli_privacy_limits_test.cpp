// What each kind of run's privacy statement says it does not protect (privacy.not_protected in
// result.json, "does not protect:" lines on the terminal): a run that claims nothing, a private run
// over records (DP-GIBO), a seeded one, a refused one, a `command` program's run and a search over a
// program's private trials, and DP-UCB's conditional guarantee.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;
using json = nlohmann::json;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

json result_of(const std::string& out) {
    std::ifstream in(out + "/result.json");
    return json::parse(in);
}

// The one entry of `limits` that contains `part`, or "" when none does (several: the first).
std::string limit_with(const json& limits, const std::string& part) {
    for (const json& limit : limits)
        if (contains(limit.get<std::string>(), part)) return limit.get<std::string>();
    return {};
}

// What every private statement must not leave out, whatever the algorithm and the objective.
void check_common_limits(const json& privacy) {
    CAPTURE(privacy.dump(2));
    const json& limits = privacy.at("not_protected");
    CHECK(!limit_with(limits, "not listed as released (evaluation-only values").empty());
    CHECK(!limit_with(limits, "group privacy").empty());
    CHECK(!limit_with(limits, "what the data as a whole reveal").empty());
    CHECK(!limit_with(limits, "choices made by looking at the data").empty());
    // In the statement's own unit.
    CHECK(contains(limit_with(limits, "group privacy"), privacy.at("protected_unit").get<std::string>()));
}

// DP-GIBO for three iterations on normal-location, or on the objective `objective` names.
std::vector<std::string> dp_gibo(const std::string& out, const std::vector<std::string>& extra = {},
                                 const std::vector<std::string>& objective = {"--objective", "normal-location"}) {
    std::vector<std::string> arguments = {"run", "--algorithm", "dp-gibo", "--set", "algorithm.iterations=3", "--out",
                                          out};
    arguments.insert(arguments.end(), objective.begin(), objective.end());
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

// A program whose trials are private learners (standard library only): x plus Laplace noise of
// scale 10 it draws itself, declared with each answer.
const char* const kTrialProgram = R"py(
import json, random, sys
noise = random.SystemRandom()
print(json.dumps({"protocol": "dpbo-objective", "version": 1, "space": [{"name": "x", "lower": 0, "upper": 1}],
                  "trials": {"neighbouring": "add or remove one record", "protected": "one row of the test's table"}}),
      flush=True)
for line in sys.stdin:
    points = json.loads(line)["points"]
    print(json.dumps({"values": [p[0] + noise.expovariate(0.1) - noise.expovariate(0.1) for p in points],
                      "events": [["laplace:scale=10,sensitivity=1"] for _ in points]}), flush=True)
)py";

}  // namespace

TEST_CASE("cli privacy limits: a run that claims nothing says it protects nothing") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--algorithm", "random-search", "--set", "algorithm.budget=4", "--objective",
                             "branin", "--out", dir.path() + "/run"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json limits = result_of(dir.path() + "/run")["privacy"]["not_protected"];
    REQUIRE(limits.size() == 1);
    CHECK(limits[0].get<std::string>().rfind("nothing: the run claims no privacy", 0) == 0);
    CHECK(contains(r.out, "does not protect: nothing"));
}

TEST_CASE("cli privacy limits: DP-GIBO over records names group privacy at k·μ, the record count and the rest") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(dp_gibo(dir.path() + "/run"));
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    check_common_limits(privacy);
    CHECK(contains(limit_with(privacy["not_protected"], "group privacy"), "at k·μ-GDP"));
    CHECK(!limit_with(privacy["not_protected"], "the number of records").empty());
    // The terminal's statement lists them too.
    CHECK(contains(r.out, "does not protect: what the data as a whole reveal"));
}

TEST_CASE(
    "cli privacy limits: a seeded run protects nothing of its values, and its hypothetical claim keeps the list") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(dp_gibo(dir.path() + "/run", {"--seed", "3"}));
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    REQUIRE(privacy["not_protected"].size() == 1);
    CHECK(contains(privacy["not_protected"][0].get<std::string>(), "whoever knows the seed removes the noise"));
    check_common_limits(privacy["hypothetical"]);
}

TEST_CASE("cli privacy limits: a run refused by its budget states what it does not protect") {
    TemporaryDirectory dir;
    const auto r =
        run_dpbo({"run", "--algorithm", "dp-gd", "--objective", "huber-regression", "--set", "algorithm.mu=0.9",
                  "--set", "algorithm.iterations=9", "--budget", "mu=0.5", "--out", dir.path() + "/run"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 1);
    const json result = result_of(dir.path() + "/run");
    REQUIRE(result["status"] == "refused");
    check_common_limits(result["privacy"]);
}

TEST_CASE("cli privacy limits: a command program's run does not protect what the program does besides answering") {
    TemporaryDirectory dir;
    const std::string program = std::string("python3 ") + DPBO_SOURCE_DIR +
                                "/sdk/examples/python-objective/record_objective.py --dim 2 "
                                "--records 20";
    const auto r = run_dpbo(
        dp_gibo(dir.path() + "/run", {}, {"--objective", "command", "--set", "objective.command=" + program}), {}, 60);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    check_common_limits(privacy);
    const json& limits = privacy["not_protected"];
    CHECK(contains(limit_with(limits, "besides answering dpbo"), "`" + program + "`"));
    CHECK(!limit_with(limits, "data the program reads besides the records whose losses it returns").empty());
    CHECK(!limit_with(limits, "standard error").empty());
}

TEST_CASE("cli privacy limits: a search over a program's private trials names what the trials release besides") {
    TemporaryDirectory dir;
    const std::string file = dir.path() + "/trials.py";
    std::ofstream(file) << kTrialProgram;
    const auto r =
        run_dpbo({"run", "--algorithm", "random-search", "--set", "algorithm.budget=3", "--objective", "command",
                  "--set", "objective.command=python3 " + file, "--accountant", "basic", "--out", dir.path() + "/run"},
                 {}, 60);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    check_common_limits(privacy);
    const json& limits = privacy["not_protected"];
    CHECK(contains(limit_with(limits, "group privacy"), "one row of the test's table"));
    CHECK(contains(limit_with(limits, "group privacy"), "at k·ε"));
    CHECK(!limit_with(limits, "releases besides its answers").empty());
    CHECK(contains(limit_with(limits, "outside what one trial's guarantee protects"), "one row of the test's table"));
}

TEST_CASE("cli privacy limits: DP-UCB's conditional guarantee says it does not hold where its assumption fails") {
    TemporaryDirectory dir;
    const std::string candidates = dir.path() + "/candidates.csv";
    std::ofstream(candidates) << "0.1, 0.2\n0.3, 0.4\n0.5, 0.5\n";
    const auto r = run_dpbo({"run",
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
                             "algorithm.candidates=" + candidates,
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
                             "--out",
                             dir.path() + "/run"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    check_common_limits(privacy);
    CHECK(contains(limit_with(privacy["not_protected"], "data for which it does not hold"), "Assumption 1"));
    CHECK(contains(limit_with(privacy["not_protected"], "group privacy"), "at (k·ε, k·e^((k−1)ε)·δ)"));
}
