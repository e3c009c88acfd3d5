// A dataset's lifetime ledger end to end (docs/lifetime-ledger.md): `dpbo ledger create` makes an
// owner-only file and never overwrites one; `dpbo run --ledger` and `dpbo study create --ledger`
// charge every release once, before its noise, and the release beyond the lifetime budget is refused
// naming the ledger; two runs at once never exceed the budget together; a changed entry is named by
// `show` and `verify` and refuses new runs; bad input is a clear error.
#include <doctest/doctest.h>

#include <sqlite3.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
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

namespace fs = std::filesystem;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

CommandResult dpbo_ok(const std::vector<std::string>& arguments) {
    CommandResult r = run_dpbo(arguments, {}, 120);
    CAPTURE(arguments);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    return r;
}

// Exit 2 with every part in the error.
void refused(const std::vector<std::string>& arguments, const std::vector<std::string>& parts) {
    const CommandResult r = run_dpbo(arguments, {}, 120);
    CAPTURE(arguments);
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    for (const std::string& part : parts) CHECK(contains(r.err, part));
}

// DP-GD with 9 steps at μ = 0.9: each release is 0.3-GDP (μ² = 0.09 each, 0.81 in all).
std::vector<std::string> dp_gd(const std::string& out, const std::string& ledger,
                               const std::vector<std::string>& extra = {}) {
    std::vector<std::string> arguments = {"run",
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
                                          "--ledger",
                                          ledger,
                                          "--out",
                                          out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

json read_json(const fs::path& file) {
    std::ifstream in(file);
    return json::parse(in);
}

json show(const std::string& ledger) { return json::parse(dpbo_ok({"ledger", "show", ledger, "--json"}).out); }

// The ledger's charges of the run with token `run`.
std::size_t charges_of(const json& shown, const std::string& run) {
    for (const json& r : shown["runs"])
        if (r["run"] == run) return r["charges"].size();
    return 0;
}

void exec_sql(const std::string& file, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(file.c_str(), &db) == SQLITE_OK);
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const std::string why = message ? message : "";
    sqlite3_free(message);
    sqlite3_close(db);
    REQUIRE_MESSAGE(rc == SQLITE_OK, sql << ": " << why);
}

}  // namespace

TEST_CASE("cli ledger create: an owner-only file, never overwritten, and budgets read as --budget") {
    TemporaryDirectory dir;
    const std::string ledger = dir.path() + "/data.ledger";
    const json created = json::parse(dpbo_ok({"ledger", "create", ledger, "--budget", "mu=2", "--json"}).out);
    CHECK(created["filter"] == "gdp");
    CHECK(created["budget"] == "mu=2");
    struct stat info {};
    REQUIRE(stat(ledger.c_str(), &info) == 0);
    CHECK((info.st_mode & 0777) == 0600);
    // Nothing beside it: the temporary name it was made under is gone.
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir.path())) ++files;
    CHECK(files == 1);

    refused({"ledger", "create", ledger, "--budget", "mu=3"}, {ledger, "exists already", "never overwritten"});
    CHECK(show(ledger)["budget"] == "mu=2");  // the first ledger is untouched

    const std::string other = dir.path() + "/other.ledger";
    refused({"ledger", "create", other}, {"needs --budget"});
    refused({"ledger", "create", other, "--budget", "mu=1,epsilon=2"}, {"mu=1,epsilon=2", "cannot be mixed"});
    refused({"ledger", "create", other, "--budget", "sigma=1"}, {"unknown key 'sigma'"});
    refused({"ledger", "create", other, "--budget", "epsilon=1,delta=2"}, {"delta = 2", "[0, 1)"});
    // An (ε, δ) budget whose every Rényi order is used up by log(K/δ) alone.
    refused({"ledger", "create", other, "--budget", "epsilon=0.01,delta=1e-10"},
            {"epsilon=0.01,delta=1e-10", "no Rényi order"});
    refused({"ledger", "create", "--budget", "mu=1"}, {"name the ledger file"});
    CHECK_FALSE(fs::exists(other));

    const json renyi =
        json::parse(dpbo_ok({"ledger", "create", other, "--budget", "epsilon=3,delta=1e-5", "--json"}).out);
    CHECK(renyi["filter"] == "renyi");
}

TEST_CASE("cli ledger: a run charges each release once, and show lists it with what was spent and what is left") {
    TemporaryDirectory dir;
    const std::string ledger = dir.path() + "/data.ledger";
    dpbo_ok({"ledger", "create", ledger, "--budget", "mu=2"});
    const json empty = show(ledger);
    CHECK(empty["entries"] == 0);
    CHECK(empty["runs"].empty());

    const std::string out = dir.path() + "/run";
    dpbo_ok(dp_gd(out, ledger));
    const json result = read_json(fs::path(out) / "result.json");
    REQUIRE(result.contains("lifetime_ledger"));
    const std::string run = result["lifetime_ledger"]["run"];
    CHECK(result["lifetime_ledger"]["budget"] == "mu=2");

    const json shown = show(ledger);
    CHECK(shown["entries"] == 9);
    REQUIRE(shown["runs"].size() == 1);
    CHECK(charges_of(shown, run) == 9);
    CHECK(contains(shown["runs"][0]["source"].get<std::string>(), out));
    for (std::size_t i = 0; i < 9; ++i) {
        const json& charge = shown["runs"][0]["charges"][i];
        CHECK(charge["charge"] == i + 1);
        CHECK(contains(charge["event"].get<std::string>(), "gradient at step " + std::to_string(i + 1)));
        // 0.3² rounded up, never below.
        CHECK(charge["cost"][0].get<double>() >= 0.09);
        CHECK(charge["cost"][0].get<double>() <= 0.09 * (1 + 1e-15));
    }
    // Σμᵢ² = 0.81 (each addition rounded up by an ulp): 0.9 of 2 spent, sqrt(4 − 0.81) left.
    const double sum = shown["sums"][0];
    CHECK(sum >= 0.81);
    CHECK(sum <= 0.81 * (1 + 1e-14));
    CHECK(contains(shown["spent"]["describes"].get<std::string>(), "mu = 0.9 of 2"));
    std::ostringstream left;
    left << "mu = " << std::sqrt(4 - 0.81);  // six significant digits, as %g
    CHECK(contains(shown["left"].get<std::string>(), left.str()));
    CHECK(shown["chain"]["verified"] == true);

    // Run again into the same folder: its result is kept, nothing is charged again.
    dpbo_ok(dp_gd(out, ledger));
    CHECK(show(ledger)["entries"] == 9);

    const CommandResult text = dpbo_ok({"ledger", "show", ledger});
    CHECK(contains(text.out, "fully adaptive GDP filter"));
    CHECK(contains(text.out, "9 charge(s)"));
    CHECK(contains(text.out, "hash chain and running sums verified"));
    const CommandResult verified = dpbo_ok({"ledger", "verify", ledger});
    CHECK(contains(verified.out, "9 entries"));
}

TEST_CASE("cli ledger: the release beyond the lifetime budget is refused before its noise, naming the ledger") {
    TemporaryDirectory dir;
    const std::string ledger = dir.path() + "/data.ledger";
    dpbo_ok({"ledger", "create", ledger, "--budget", "mu=1"});
    dpbo_ok(dp_gd(dir.path() + "/first", ledger));
    // 0.81 spent; two more releases of 0.09 fit (0.99), the third (1.08) does not.
    const std::string second = dir.path() + "/second";
    const CommandResult r = run_dpbo(dp_gd(second, ledger), {}, 120);
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, ledger));
    CHECK(contains(r.err, "budget mu=1"));
    CHECK(contains(r.err, "'gradient at step 3'"));
    CHECK(contains(r.err, "would spend mu = 0.3"));
    CHECK(contains(r.err, "before its noise was drawn"));
    const json result = read_json(fs::path(second) / "result.json");
    CHECK(result["status"] == "refused");
    CHECK(result["budget"]["releases_made"] == 2);
    CHECK(result["released"].size() == 2);
    // The ledger holds exactly the releases made: none refused, none missing.
    const json shown = show(ledger);
    CHECK(shown["entries"] == 11);
    CHECK(charges_of(shown, result["lifetime_ledger"]["run"]) == 2);
    CHECK(shown["sums"][0].get<double>() <= 1.0);
}

TEST_CASE("cli ledger: two runs at once on one ledger never exceed its budget together") {
    TemporaryDirectory dir;
    const std::string ledger = dir.path() + "/data.ledger";
    dpbo_ok({"ledger", "create", ledger, "--budget", "mu=1"});
    // Each run alone fits (0.81 ≤ 1); together they would spend 1.62. Started at once, their charges
    // interleave as the ledger's write lock lets them: 11 releases fit, whoever makes them.
    const auto quoted = [](const std::vector<std::string>& arguments) {
        std::string line = std::string("'") + DPBO_EXECUTABLE + "'";
        for (const std::string& a : arguments) line += " '" + a + "'";
        return line;
    };
    const std::string a = dir.path() + "/a", b = dir.path() + "/b";
    const CommandResult both = run_program("/bin/sh",
                                           {"-c", quoted(dp_gd(a, ledger)) + " > " + a + ".out 2>&1 & " +
                                                      quoted(dp_gd(b, ledger)) + " > " + b + ".out 2>&1 & wait"},
                                           {{"DPBO_PLUGIN_PATH", ""}}, 120);
    REQUIRE(both.exit_code == 0);
    const json shown = show(ledger);
    CHECK(shown["entries"] == 11);
    CHECK(shown["sums"][0].get<double>() <= 1.0);
    std::size_t refusals = 0;
    std::size_t made_in_all = 0;
    for (const std::string& out : {a, b}) {
        CAPTURE(out);
        const json result = read_json(fs::path(out) / "result.json");
        const std::size_t made =
            result.value("status", "") == "refused" ? result["budget"]["releases_made"].get<std::size_t>() : 9;
        if (result.value("status", "") == "refused") ++refusals;
        made_in_all += made;
        // Every release made is charged once, and nothing refused is.
        CHECK(charges_of(shown, result["lifetime_ledger"]["run"]) == made);
    }
    CHECK(made_in_all == 11);
    // One run refused, or both when their charges interleaved (each then made part of the 11).
    CHECK(refusals >= 1);
    MESSAGE(refusals, " of the two runs refused");
}

TEST_CASE("cli ledger: a changed entry is named by show and verify, and the ledger admits no run") {
    TemporaryDirectory dir;
    const std::string ledger = dir.path() + "/data.ledger";
    dpbo_ok({"ledger", "create", ledger, "--budget", "mu=3"});
    dpbo_ok(dp_gd(dir.path() + "/run", ledger));
    dpbo_ok({"ledger", "verify", ledger});

    const std::string copy = dir.path() + "/copy.ledger";
    fs::copy_file(ledger, copy);
    // Entry 3 made cheaper after the fact.
    exec_sql(ledger, "UPDATE entries SET event = replace(event, 'mu = 0.3', 'mu = 0.03') WHERE seq = 3");
    for (const char* command : {"show", "verify"})
        refused({"ledger", command, ledger}, {ledger, "entry 3", "does not match its hash"});
    refused(dp_gd(dir.path() + "/next", ledger), {ledger, "entry 3"});

    // The last entry removed with the running state left as it was.
    fs::copy_file(copy, ledger, fs::copy_options::overwrite_existing);
    dpbo_ok({"ledger", "verify", ledger});
    exec_sql(ledger, "DELETE FROM entries WHERE seq = 9");
    refused({"ledger", "verify", ledger}, {ledger, "records 9 entries", "entries are 8"});

    // The running sums lowered to admit more.
    fs::copy_file(copy, ledger, fs::copy_options::overwrite_existing);
    exec_sql(ledger, "UPDATE state SET sums = '0x0p+0' WHERE id = 1");
    refused({"ledger", "verify", ledger}, {ledger, "running sums"});

    // The budget raised in the header.
    fs::copy_file(copy, ledger, fs::copy_options::overwrite_existing);
    exec_sql(ledger, "UPDATE meta SET value = 'mu=30' WHERE key = 'budget'");
    refused({"ledger", "verify", ledger}, {ledger});
}

TEST_CASE("cli ledger: a missing ledger, a file that is none and another notion than the accountant's are refused") {
    TemporaryDirectory dir;
    const std::string missing = dir.path() + "/missing.ledger";
    refused(dp_gd(dir.path() + "/a", missing), {missing, "does not exist", "dpbo ledger create"});
    refused({"ledger", "show", missing}, {missing, "does not exist"});
    refused(dp_gd(dir.path() + "/a", ""), {"--ledger is empty"});
    const std::string text = dir.path() + "/notes.txt";
    std::ofstream(text) << "not a ledger\n";
    refused(dp_gd(dir.path() + "/a", text), {text, "not a dpbo lifetime ledger"});

    // A μ-GDP ledger cannot price the rdp accountant's RDP curves; it names the ledger, its budget and
    // the accountant, and nothing was charged.
    const std::string gdp = dir.path() + "/gdp.ledger";
    dpbo_ok({"ledger", "create", gdp, "--budget", "mu=2"});
    refused(dp_gd(dir.path() + "/b", gdp, {"--accountant", "rdp"}), {gdp, "mu=2", "rdp", "Renyi"});
    CHECK(show(gdp)["entries"] == 0);

    // An (ε, δ) ledger takes μ-GDP releases through their RDP curve αμ²/2.
    const std::string renyi = dir.path() + "/renyi.ledger";
    dpbo_ok({"ledger", "create", renyi, "--budget", "epsilon=8,delta=1e-5"});
    dpbo_ok(dp_gd(dir.path() + "/c", renyi));
    const json shown = show(renyi);
    CHECK(shown["entries"] == 9);
    const json& orders = shown["orders"];
    for (std::size_t k = 0; k < orders.size(); ++k) {
        const double alpha = orders[k];
        CHECK(shown["sums"][k].get<double>() >= alpha * 0.81 / 2);
        CHECK(shown["sums"][k].get<double>() <= alpha * 0.81 / 2 * (1 + 1e-13));
    }

    const std::string pure = dir.path() + "/pure.ledger";
    dpbo_ok({"ledger", "create", pure, "--budget", "epsilon=1"});
    // dp-gd's μ-GDP releases are not pure ε-DP: refused at the first charge, leaving its journal.
    refused(dp_gd(dir.path() + "/d", pure), {pure, "pure epsilon-DP"});
    CHECK(show(pure)["entries"] == 0);
}

TEST_CASE("cli ledger: a study charges each release once over all its asks and tells") {
    TemporaryDirectory dir;
    const std::string examples = std::string(DPBO_SOURCE_DIR) + "/sdk/examples/python-objective";
    const CommandResult spec =
        run_program("/usr/bin/env", {"python3", examples + "/record_objective.py", "--print-spec"});
    REQUIRE(spec.exit_code == 0);
    const std::string spec_file = dir.path() + "/spec.json";
    std::ofstream(spec_file) << spec.out;
    const std::string ledger = dir.path() + "/data.ledger";
    dpbo_ok({"ledger", "create", ledger, "--budget", "mu=5"});
    const std::string study = dir.path() + "/s.db";
    dpbo_ok({"study", "create", study, "--algorithm", "dp-gibo", "--space", spec_file, "--seed", "5", "--set",
             "algorithm.track_objective=false", "--set", "algorithm.iterations=6", "--ledger", ledger});
    const CommandResult served =
        run_program("/usr/bin/env", {"python3", examples + "/ask_tell_client.py", study, "--dpbo", DPBO_EXECUTABLE},
                    {{"DPBO_PLUGIN_PATH", ""}}, 300);
    CAPTURE(served.err);
    REQUIRE(served.exit_code == 0);
    const json shown_study = json::parse(dpbo_ok({"study", "show", study, "--json"}).out);
    CHECK(shown_study["finished"] == true);
    const json shown = show(ledger);
    // Every ask and tell replayed the study from its start; each release is counted once.
    REQUIRE(shown["runs"].size() == 1);
    CHECK(shown["entries"] == shown_study["privacy_spent"]["releases"]);
    CHECK(shown["entries"] == 6);
    CHECK(contains(shown["runs"][0]["source"].get<std::string>(), "study"));
    refused({"study", "create", dir.path() + "/t.db", "--algorithm", "dp-gibo", "--space", spec_file, "--ledger",
             dir.path() + "/none.ledger"},
            {"none.ledger", "does not exist"});
    CHECK_FALSE(fs::exists(dir.path() + "/t.db"));
}
