// Ask/tell studies end to end: the Python client of sdk/examples reproduces the seeded `dpbo run`
// (dp-gibo with per-record losses, gp-ucb), two clients at once lose no trial and still give the
// run's result, a failed trial's point is handed out again, and every refusal (a trial told twice,
// an unknown or unasked id, values of the wrong shape, a study of another dpbo, a job a study cannot
// replay) is a clear error that loses nothing already told.
#include <doctest/doctest.h>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::CommandResult;
using dpbo::test::run_dpbo;
using dpbo::test::run_program;
using dpbo::test::TemporaryDirectory;
using json = nlohmann::json;

namespace {

const std::string kExamples = std::string(DPBO_SOURCE_DIR) + "/sdk/examples/python-objective";
const std::string kObjective = kExamples + "/record_objective.py";
const std::string kClient = kExamples + "/ask_tell_client.py";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

CommandResult dpbo_ok(const std::vector<std::string>& arguments) {
    CommandResult r = run_dpbo(arguments, {}, 120);
    CAPTURE(arguments.front());
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return r;
}

// The objective's declaration, as record_objective.py prints it for `dpbo study create --space`.
std::string write_spec(const TemporaryDirectory& dir) {
    const CommandResult spec = run_program("/usr/bin/env", {"python3", kObjective, "--print-spec"});
    REQUIRE(spec.exit_code == 0);
    const std::string file = dir.path() + "/spec.json";
    std::ofstream(file) << spec.out;
    return file;
}

std::vector<std::string> create(const std::string& study, const std::string& spec, const std::string& algorithm,
                                const std::vector<std::string>& settings) {
    std::vector<std::string> arguments = {"study", "create", study, "--algorithm", algorithm, "--space",
                                          spec,    "--seed", "5"};
    arguments.insert(arguments.end(), settings.begin(), settings.end());
    return arguments;
}

// The released values of the seeded `dpbo run` over the same objective through the command objective.
json run_released(const TemporaryDirectory& dir, const std::string& name, const std::string& algorithm,
                  const std::vector<std::string>& settings) {
    std::vector<std::string> arguments = {"run",
                                          "--algorithm",
                                          algorithm,
                                          "--objective",
                                          "command",
                                          "--set",
                                          "objective.command=python3 " + kObjective,
                                          "--seed",
                                          "5",
                                          "--out",
                                          dir.path() + "/" + name};
    arguments.insert(arguments.end(), settings.begin(), settings.end());
    dpbo_ok(arguments);
    std::ifstream in(dir.path() + "/" + name + "/result.json");
    return json::parse(in)["released"];
}

json show(const std::string& study) { return json::parse(dpbo_ok({"study", "show", study, "--json"}).out); }

CommandResult client(const std::string& study) {
    return run_program("/usr/bin/env", {"python3", kClient, study, "--dpbo", DPBO_EXECUTABLE},
                       {{"DPBO_PLUGIN_PATH", ""}}, 300);
}

void set_meta(const std::string& file, const std::string& key, const std::string& value) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    const std::string sql = "UPDATE meta SET value = '" + value + "' WHERE key = '" + key + "'";
    CHECK(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(db);
}

}  // namespace

TEST_CASE("cli study: a Python ask/tell client reproduces the seeded dpbo run, dp-gibo and gp-ucb") {
    TemporaryDirectory dir;
    const std::string spec = write_spec(dir);
    struct Case {
        std::string algorithm;
        std::vector<std::string> settings;
    };
    // dp-gibo's evaluation-only tracking needs the objective itself, which a study does not have.
    const std::vector<Case> cases = {
        {"dp-gibo", {"--set", "algorithm.track_objective=false", "--set", "algorithm.iterations=6"}},
        {"gp-ucb", {"--set", "algorithm.budget=14", "--set", "algorithm.initial_points=6"}}};
    for (const Case& c : cases) {
        CAPTURE(c.algorithm);
        const std::string study = dir.path() + "/" + c.algorithm + ".db";
        dpbo_ok(create(study, spec, c.algorithm, c.settings));
        const CommandResult served = client(study);
        CAPTURE(served.err);
        REQUIRE(served.exit_code == 0);
        const json released = run_released(dir, c.algorithm, c.algorithm, c.settings);
        CHECK(json::parse(served.out) == released);
        const json shown = show(study);
        CHECK(shown["finished"] == true);
        CHECK(shown["result"]["released"] == released);
        CHECK(shown["counts"]["running"] == 0);
    }
    // DP-GIBO's study spent what its run spends, and says the clients are inside the trust boundary.
    const json gibo = show(dir.path() + "/dp-gibo.db");
    CHECK(gibo["privacy_spent"]["releases"] == 6);
    bool trusted = false;
    for (const auto& a : gibo["result"]["privacy"]["hypothetical"]["assumptions"])
        trusted = trusted || contains(a.get<std::string>(), "ask/tell clients, which are inside the trust boundary");
    CHECK(trusted);
}

TEST_CASE("cli study: two clients at once lose no trial and give the run's result") {
    TemporaryDirectory dir;
    const std::string spec = write_spec(dir);
    const std::vector<std::string> settings = {"--set", "algorithm.budget=16", "--set", "algorithm.initial_points=6",
                                               "--set", "algorithm.batch=2"};
    const std::string study = dir.path() + "/shared.db";
    dpbo_ok(create(study, spec, "gp-ucb", settings));
    const std::string one =
        "python3 '" + kClient + "' '" + study + "' --dpbo '" + DPBO_EXECUTABLE + "' --log '" + dir.path() + "/log'";
    const CommandResult both = run_program(
        "/bin/sh", {"-c", one + " > " + dir.path() + "/a.out & " + one + " > " + dir.path() + "/b.out & wait"},
        {{"DPBO_PLUGIN_PATH", ""}}, 300);
    REQUIRE(both.exit_code == 0);
    const json shown = show(study);
    CHECK(shown["finished"] == true);
    CHECK(shown["counts"]["done"] == 16);
    CHECK(shown["counts"]["running"] == 0);
    // Every trial evaluated once, by one client or the other, and both clients did some.
    std::ifstream log(dir.path() + "/log");
    std::vector<long> ids;
    for (std::string line; std::getline(log, line);) ids.push_back(json::parse(line)["id"].get<long>());
    std::sort(ids.begin(), ids.end());
    CHECK(ids.size() == 16);
    CHECK(std::adjacent_find(ids.begin(), ids.end()) == ids.end());
    // The replay takes each batch whole, whoever told it: the result is the seeded run's.
    CHECK(shown["result"]["released"] == run_released(dir, "shared-run", "gp-ucb", settings));
}

TEST_CASE("cli study: a failed trial is handed out again and refusals lose nothing told") {
    TemporaryDirectory dir;
    const std::string spec = write_spec(dir);
    const std::string study = dir.path() + "/s.db";
    dpbo_ok(create(study, spec, "dp-gibo",
                   {"--set", "algorithm.track_objective=false", "--set", "algorithm.iterations=2"}));
    // The file holds the clients' unprivatised values: its owner's alone.
    CHECK((std::filesystem::status(study).permissions() & std::filesystem::perms::all) ==
          (std::filesystem::perms::owner_read | std::filesystem::perms::owner_write));
    const json asked = json::parse(dpbo_ok({"ask", study, "--count", "2"}).out);
    REQUIRE(asked["trials"].size() == 2);
    CHECK(asked["trials"][0]["per_record"] == true);
    const long first = asked["trials"][0]["id"].get<long>();
    const long second = asked["trials"][1]["id"].get<long>();
    std::vector<double> losses(20, 1.5);
    const std::string losses_file = dir.path() + "/losses.json";
    std::ofstream(losses_file) << json(losses).dump();

    const auto refused = [&](const std::vector<std::string>& arguments, const std::string& says) {
        const CommandResult r = run_dpbo(arguments);
        CAPTURE(r.err);
        CHECK(r.exit_code == 2);
        CHECK(contains(r.err, says));
    };
    refused({"tell", study, std::to_string(first), "--value", "1.5"}, "asked for per-record values (20 of them)");
    std::ofstream(dir.path() + "/short.json") << "[1, 2, 3]";
    refused({"tell", study, std::to_string(first), "--per-record", dir.path() + "/short.json"}, "expected 1 × 20");
    refused({"tell", study, std::to_string(first), "--per-record", losses_file, "--value", "nan"},
            "'nan' is not a finite number");
    refused({"tell", study, std::to_string(first), "--per-record", losses_file, "--values", "[1, 2]"}, "values");
    refused({"tell", study, "999", "--value", "1"}, "has no trial 999");
    dpbo_ok({"tell", study, std::to_string(first), "--per-record", losses_file});
    refused({"tell", study, std::to_string(first), "--per-record", losses_file}, "was told already");

    const json failed =
        json::parse(dpbo_ok({"tell", study, std::to_string(second), "--failed", "--reason", "OOM"}).out);
    const long retry = failed["retried_as"].get<long>();
    refused({"tell", study, std::to_string(second), "--per-record", losses_file}, "reported failed (OOM)");
    refused({"tell", study, std::to_string(retry), "--per-record", losses_file}, "has not been handed out yet");
    // The batch's third point was never asked for; the retry comes with it.
    const json again = json::parse(dpbo_ok({"ask", study, "--count", "5"}).out);
    REQUIRE(again["trials"].size() == 2);
    CHECK(again["trials"][1]["id"] == retry);
    CHECK(again["trials"][1]["point"] == asked["trials"][1]["point"]);

    // What was told is still there, exactly.
    const json shown = show(study);
    CHECK(shown["counts"]["done"] == 1);
    CHECK(shown["counts"]["failed"] == 1);
    for (const auto& t : shown["trials"])
        if (t["id"] == first) CHECK(t["values"] == json::array({1.5}));

    // Another dpbo's study, a file that is no study, a file that exists, a job a study cannot replay.
    set_meta(study, "created_by", "dpbo 0.0.9 (plugin ABI 1)");
    refused({"ask", study}, "was created by dpbo 0.0.9 (plugin ABI 1)");
    std::ofstream(dir.path() + "/text.db") << "not a database\n";
    refused({"ask", dir.path() + "/text.db"}, "text.db");
    refused(create(study, spec, "gp-ucb", {}), "exists already");
    const std::string tracked = dir.path() + "/tracked.db";
    refused(create(tracked, spec, "dp-gibo", {}), "algorithm.track_objective=false");
    CHECK_FALSE(std::ifstream(tracked).good());
}
