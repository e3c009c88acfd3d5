// Trials that are private learners, end to end: a `command` program that declares "trials" and
// answers each point's events; the search's statement is the composition of every trial (equal to
// `dpbo account` of the same events), a budget refusal discards the batch, a resumed run charges the
// journaled trials again, bad events are refused naming the point and the text, and an ask/tell
// study's clients tell each trial's events with `dpbo tell --event`.
#include <doctest/doctest.h>

#include <filesystem>
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

// A trial program (standard library only): value = x + Laplace noise of scale 10 drawn by the program
// itself, declaring "laplace:scale=10,sensitivity=1" per point (ε = 0.1 per trial). Its first
// argument picks a misbehaviour; a second names a marker file for "crash-once".
const char* const kProgram = R"py(
import json, os, random, sys
mode = sys.argv[1] if len(sys.argv) > 1 else "good"
noise = random.SystemRandom()
hello = {"protocol": "dpbo-objective", "version": 1, "space": [{"name": "x", "lower": 0, "upper": 1}]}
if mode != "events-without-trials":
    hello["trials"] = {"neighbouring": "add or remove one record", "protected": "one row of the test's table",
                       "bound": ["laplace:scale=10,sensitivity=1"]}
print(json.dumps(hello), flush=True)
batches = 0
for line in sys.stdin:
    batches += 1
    if mode == "crash-once" and batches == 2 and not os.path.exists(sys.argv[2]):
        open(sys.argv[2], "w").close()
        sys.exit(3)
    points = json.loads(line)["points"]
    values = [p[0] + noise.expovariate(0.1) - noise.expovariate(0.1) for p in points]
    events = [["laplace:scale=10,sensitivity=1"] for _ in points]
    if mode == "bad-event":
        events[1] = ["laplace:scale=0,sensitivity=1"]
    answer = {"values": values}
    if mode != "missing-events":
        answer["events"] = events
    print(json.dumps(answer), flush=True)
)py";

std::string write_program(const TemporaryDirectory& dir) {
    const std::string file = dir.path() + "/trials.py";
    std::ofstream(file) << kProgram;
    return file;
}

std::vector<std::string> search(const std::string& command, const std::string& out,
                                const std::vector<std::string>& extra = {}) {
    std::vector<std::string> arguments = {"run",
                                          "--algorithm",
                                          "random-search",
                                          "--set",
                                          "algorithm.budget=6",
                                          "--set",
                                          "algorithm.batch=3",
                                          "--objective",
                                          "command",
                                          "--set",
                                          "objective.command=" + command,
                                          "--accountant",
                                          "basic",
                                          "--out",
                                          out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

json result_of(const std::string& out) {
    std::ifstream in(out + "/result.json");
    return json::parse(in);
}

// ε of `dpbo account` composing `events` with the basic accountant.
double account_epsilon(const std::vector<std::string>& events) {
    std::vector<std::string> arguments = {"account", "--accountant", "basic", "--json"};
    for (const std::string& event : events) arguments.insert(arguments.end(), {"--event", event});
    const auto accounted = run_dpbo(arguments);
    CAPTURE(accounted.err);
    REQUIRE(accounted.exit_code == 0);
    return json::parse(accounted.out)["epsilon"].get<double>();
}

}  // namespace

TEST_CASE("cli trials: random search over private trials states the composition of every trial") {
    TemporaryDirectory dir;
    const std::string program = "python3 " + write_program(dir);
    const auto run = run_dpbo(search(program, dir.path() + "/run"), {}, 60);
    CAPTURE(run.err);
    REQUIRE(run.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"];
    CAPTURE(privacy.dump(2));
    CHECK(privacy["notion"] == "epsilon-DP");
    CHECK(privacy["epsilon"].get<double>() ==
          account_epsilon(std::vector<std::string>(6, "laplace:scale=10,sensitivity=1")));
    CHECK(privacy["epsilon"].get<double>() == doctest::Approx(0.6));
    CHECK(privacy["neighbouring"] == "add or remove one record");
    CHECK(privacy["protected_unit"] == "one row of the test's table");
    CHECK(contains(privacy["mechanism"].get<std::string>(), "composition of 6 trials"));
    CHECK(contains(privacy["released"].dump(), "every trial's hyperparameters and its privatised value (6 trials)"));
}

TEST_CASE("cli trials: a batch the budget refuses is discarded and the run ends refused") {
    TemporaryDirectory dir;
    const std::string program = "python3 " + write_program(dir);
    const auto run = run_dpbo(search(program, dir.path() + "/run", {"--budget", "epsilon=0.45"}), {}, 60);
    CHECK(run.exit_code == 1);
    CHECK(contains(run.err, "release refused: 'trial 5 (batch 2, point 1)'"));
    const json result = result_of(dir.path() + "/run");
    CHECK(result["status"] == "refused");
    // The first batch's three trials and the refused batch's first were charged; nothing of the
    // refused batch was handed to the search.
    CHECK(result["privacy"]["epsilon"].get<double>() == doctest::Approx(0.4));
}

TEST_CASE("cli trials: a resumed run charges the journaled trials again") {
    TemporaryDirectory dir;
    const std::string marker = dir.path() + "/crashed";
    const std::string program = "python3 " + write_program(dir) + " crash-once " + marker;
    const auto first = run_dpbo(search(program, dir.path() + "/run", {"--seed", "3"}), {}, 60);
    REQUIRE(first.exit_code == 1);
    REQUIRE(std::filesystem::exists(marker));
    const auto resumed = run_dpbo(search(program, dir.path() + "/run", {"--seed", "3"}), {}, 60);
    CAPTURE(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    const json privacy = result_of(dir.path() + "/run")["privacy"]["hypothetical"];
    CHECK(privacy["epsilon"].get<double>() ==
          account_epsilon(std::vector<std::string>(6, "laplace:scale=10,sensitivity=1")));
    CHECK(contains(privacy["mechanism"].get<std::string>(), "composition of 6 trials"));
}

TEST_CASE("cli trials: bad or missing events are refused naming the point and the text") {
    TemporaryDirectory dir;
    const std::string program = "python3 " + write_program(dir);
    const auto bad = run_dpbo(search(program + " bad-event", dir.path() + "/bad"), {}, 60);
    CAPTURE(bad.err);
    CHECK(bad.exit_code == 1);
    CHECK(contains(bad.err, "events[1] (point 1)[0]"));
    CHECK(contains(bad.err, "laplace:scale=0,sensitivity=1"));
    const auto missing = run_dpbo(search(program + " missing-events", dir.path() + "/missing"), {}, 60);
    CHECK(missing.exit_code == 1);
    CHECK(contains(missing.err, "declared trials and answered nothing as \"events\" for 3 points"));
    const auto stray = run_dpbo(search(program + " events-without-trials", dir.path() + "/stray"), {}, 60);
    CHECK(stray.exit_code == 1);
    CHECK(contains(stray.err, "its handshake declares no \"trials\""));
}

TEST_CASE("cli trials: a study's clients tell each trial's events, and the study composes them") {
    TemporaryDirectory dir;
    const std::string spec = dir.path() + "/spec.json";
    std::ofstream(spec) << R"({"protocol": "dpbo-objective", "version": 1, "space": [{"name": "x", "lower": 0,
        "upper": 1}], "trials": {"neighbouring": "add or remove one record",
        "protected": "one row of the client's table", "bound": ["laplace:scale=10,sensitivity=1"]}})";
    const std::string study = dir.path() + "/study.db";
    const auto created = run_dpbo({"study", "create", study, "--algorithm", "random-search", "--space", spec, "--set",
                                   "algorithm.budget=2", "--set", "algorithm.batch=2", "--accountant", "basic"});
    CAPTURE(created.err);
    REQUIRE(created.exit_code == 0);
    const auto asked = run_dpbo({"ask", study, "--count", "2"});
    CAPTURE(asked.out);
    REQUIRE(asked.exit_code == 0);
    std::vector<std::string> ids;
    const json handed = json::parse(asked.out);
    for (const json& trial : handed["trials"]) ids.push_back(std::to_string(trial["id"].get<int>()));
    REQUIRE(ids.size() == 2);

    const auto without = run_dpbo({"tell", study, ids[0], "--value", "0.5"});
    CHECK(without.exit_code == 2);
    CHECK(contains(without.err, "tell what this trial spent with --event TEXT"));
    const auto malformed = run_dpbo({"tell", study, ids[0], "--value", "0.5", "--event", "laplace:scale=-1"});
    CHECK(malformed.exit_code == 2);
    CHECK(contains(malformed.err, "--event 'laplace:scale=-1'"));

    for (const std::string& id : ids) {
        const auto told = run_dpbo({"tell", study, id, "--value", "0.5", "--event", "laplace:scale=10,sensitivity=1",
                                    "--event", "pure:epsilon=0.05"});
        CAPTURE(told.err);
        REQUIRE(told.exit_code == 0);
    }
    const auto shown = run_dpbo({"study", "show", study, "--json"});
    CAPTURE(shown.err);
    REQUIRE(shown.exit_code == 0);
    const json state = json::parse(shown.out);
    CAPTURE(state.dump(2));
    const double expected = account_epsilon(
        {"laplace:scale=10,sensitivity=1", "pure:epsilon=0.05", "laplace:scale=10,sensitivity=1", "pure:epsilon=0.05"});
    CHECK(state["result"]["privacy"]["epsilon"].get<double>() == expected);
    CHECK(contains(state["result"]["privacy"]["mechanism"].get<std::string>(), "composition of 2 trials"));
}

TEST_CASE("cli trials: a search with a mechanism of its own over private trials is refused before it runs") {
    TemporaryDirectory dir;
    const std::string program = "python3 " + write_program(dir);
    const auto run = run_dpbo(
        search(program, dir.path() + "/run",
               {"--set", "algorithm.value_sensitivity=0.1", "--mechanism", "laplace", "--set", "mechanism.epsilon=1"}),
        {}, 60);
    CAPTURE(run.err);
    // Refused before anything runs: one run states one guarantee.
    CHECK(run.exit_code == 2);
    CHECK(contains(run.err, "runs trials that are private learners"));
    CHECK(contains(run.err, "mechanism 'laplace' for its role 'mechanism'"));
    CHECK_FALSE(std::filesystem::exists(std::filesystem::path(dir.path()) / "run" / "result.json"));
}
