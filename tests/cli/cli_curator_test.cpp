// PO-GP-UCB with two parties through the CLI: `dpbo curator release` writes the released rows, a
// modeler's `dpbo run --candidates … --curator '…'` searches them and asks a curator program in
// another process for the responses, and every way the curator can fail is a clear error, fast.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// 40 rows on a 5 × 8 grid of [0, 4] × [0, 7] with the response 10 − (x − 3)² − (y − 5)², as a CSV.
std::string write_rows(const std::string& dir) {
    const std::string path = dir + "/rows.csv";
    std::ofstream out(path);
    out << "x,y,worth\n";
    for (int x = 0; x < 5; ++x)
        for (int y = 0; y < 8; ++y) out << x << "," << y << "," << 10.0 - (x - 3) * (x - 3) - (y - 5) * (y - 5) << "\n";
    return path;
}

std::vector<std::string> table_settings(const std::string& rows) {
    return {"--objective", "table",
            "--set",       "objective.file=" + rows,
            "--set",       "objective.columns=x,y",
            "--set",       "objective.response=worth",
            "--set",       "objective.bounds=0:4,0:7"};
}

std::string quoted(const std::vector<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "'" : " '") + w + "'";
    return out;
}

nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("cli curator: release, then a modeler in one process asks a curator in another by row index") {
    TemporaryDirectory dir;
    const std::string rows = write_rows(dir.path());
    std::vector<std::string> release = {"curator", "release"};
    for (const auto& s : table_settings(rows)) release.push_back(s);
    for (const auto& s : {"--release", "noisy-projection", "--set", "release.r=6", "--seed", "3", "--out"})
        release.push_back(s);
    release.push_back(dir.path() + "/release");
    const auto released = run_dpbo(release);
    CAPTURE(released.err);
    REQUIRE(released.exit_code == 0);
    CHECK(contains(released.out, "(3, 1e-05)-DP"));
    const auto statement = read_json(dir.path() + "/release/release.json");
    CHECK(statement["privacy"]["notion"] == "(epsilon, delta)-DP");
    CHECK(statement["rows"] == 40);
    CHECK(statement["columns"] == 6);
    CHECK(contains(statement["privacy"]["protected_unit"].get<std::string>(), "x: "));
    // What the release does not protect, in its own unit: curator_only.json among what is written beside it.
    const std::string limits = statement["privacy"]["not_protected"].dump();
    CHECK(contains(limits, "not listed as released"));
    CHECK(contains(limits, "group privacy"));
    CHECK(contains(released.out, "does not protect: "));
    CHECK(std::filesystem::exists(dir.path() + "/release/curator_only.json"));

    // The modeler's run: the curator is a separate `dpbo curator answer` process.
    std::vector<std::string> answer = {DPBO_EXECUTABLE, "curator", "answer"};
    for (const auto& s : table_settings(rows)) answer.push_back(s);
    const auto modeler =
        run_dpbo({"run", "--algorithm", "po-gp-ucb", "--candidates", dir.path() + "/release/released_rows.csv",
                  "--curator", quoted(answer), "--set", "algorithm.budget=12", "--set", "algorithm.initial_points=3",
                  "--seed", "1", "--out", dir.path() + "/modeler"});
    CAPTURE(modeler.err);
    REQUIRE(modeler.exit_code == 0);
    const auto result = read_json(dir.path() + "/modeler/result.json");
    CHECK(result["privacy"]["headline"] == "not private");
    CHECK(result["evaluations"] == 12);
    // The curator's answer for the best row is that row's response: row = 8x + y.
    const int best_row = static_cast<int>(result["released"]["best_row"]["value"].get<double>());
    const int x = best_row / 8;
    const int y = best_row % 8;
    CHECK(result["released"]["best_value"]["value"].get<double>() ==
          doctest::Approx(10.0 - (x - 3) * (x - 3) - (y - 5) * (y - 5)));

    // Every value in the trace is the curator's answer for the released row evaluated: its response.
    const auto read_csv = [](const std::string& path) {
        std::ifstream in(path);
        std::vector<std::vector<double>> table;
        std::string line;
        std::getline(in, line);  // header
        while (std::getline(in, line)) {
            std::vector<double> row;
            std::istringstream fields(line);
            for (std::string field; std::getline(fields, field, ',');) row.push_back(std::stod(field));
            table.push_back(row);
        }
        return table;
    };
    const auto z = read_csv(dir.path() + "/release/released_rows.csv");
    const auto trace = read_csv(dir.path() + "/modeler/trace.csv");
    REQUIRE(z.size() == 40);
    REQUIRE(trace.size() >= 9);
    for (const auto& step : trace) {
        // columns: iteration, evaluations, value, best_value, acquisition, cpu_seconds, x[0..r)
        REQUIRE(step.size() == 6 + z.front().size());
        std::size_t nearest = 0;
        double nearest_distance = INFINITY;
        for (std::size_t i = 0; i < z.size(); ++i) {
            double distance = 0.0;
            for (std::size_t j = 0; j < z[i].size(); ++j) distance += std::pow(z[i][j] - step[6 + j], 2);
            if (distance < nearest_distance) {
                nearest_distance = distance;
                nearest = i;
            }
        }
        CHECK(nearest_distance < 1e-18);
        const double rx = static_cast<double>(nearest / 8);
        const double ry = static_cast<double>(nearest % 8);
        CHECK(step[2] == doctest::Approx(10.0 - (rx - 3) * (rx - 3) - (ry - 5) * (ry - 5)));
    }

    // One-shot answers, and a bad request line answered with an error while the curator keeps serving.
    std::vector<std::string> once = {"curator", "answer"};
    for (const auto& s : table_settings(rows)) once.push_back(s);
    once.push_back("--rows");
    once.push_back("29,0");
    const auto one_shot = run_dpbo(once);
    REQUIRE(one_shot.exit_code == 0);
    CHECK(nlohmann::json::parse(one_shot.out)["values"] == nlohmann::json::array({10.0, -24.0}));
    once.back() = "40";
    const auto out_of_range = run_dpbo(once);
    CHECK(out_of_range.exit_code == 2);
    CHECK(contains(out_of_range.err, "row 40 is not an index in [0, 40)"));
    const std::string script = dir.path() + "/session.sh";
    std::ofstream(script) << "printf 'nonsense\\n{\"rows\":[1]}\\n' | " << quoted(answer) << "\n";
    const auto session = dpbo::test::run_program("/bin/sh", {script});
    REQUIRE(session.exit_code == 0);
    std::istringstream lines(session.out);
    std::string handshake, refused, served;
    std::getline(lines, handshake);
    std::getline(lines, refused);
    std::getline(lines, served);
    CHECK(nlohmann::json::parse(handshake)["rows"] == 40);
    CHECK(contains(refused, "\"error\""));
    CHECK(nlohmann::json::parse(served)["values"][0] == doctest::Approx(10.0 - 9.0 - 16.0));
}

// A modeler's run against the released rows of the 40-row table, with a curator command under test.
struct ModelerFixture {
    TemporaryDirectory dir;
    std::string z;
    int runs = 0;
    const std::string hello = R"(echo '{"protocol":"dpbo-curator","version":1,"rows":40,"sense":"maximise"}'; )";

    ModelerFixture() {
        const std::string rows = write_rows(dir.path());
        std::vector<std::string> release = {"curator", "release"};
        for (const auto& s : table_settings(rows)) release.push_back(s);
        for (const auto& s : {"--seed", "3", "--out"}) release.push_back(s);
        release.push_back(dir.path() + "/release");
        REQUIRE(run_dpbo(release).exit_code == 0);
        z = dir.path() + "/release/released_rows.csv";
    }

    dpbo::test::CommandResult modeler(const std::string& command, const std::vector<std::string>& extra = {}) {
        std::vector<std::string> arguments = {"run",
                                              "--algorithm",
                                              "po-gp-ucb",
                                              "--candidates",
                                              z,
                                              "--curator",
                                              command,
                                              "--set",
                                              "algorithm.budget=8",
                                              "--set",
                                              "algorithm.initial_points=3",
                                              "--seed",
                                              "1",
                                              "--out",
                                              dir.path() + "/m" + std::to_string(++runs)};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        return run_dpbo(arguments, {}, 30);
    }
};

double seconds_since(std::chrono::steady_clock::time_point from) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
}

TEST_CASE("cli curator: a curator program that fails or breaks the protocol is a clear error naming it") {
    ModelerFixture f;
    const std::string& hello = f.hello;
    const auto started = std::chrono::steady_clock::now();
    const auto exited = f.modeler("echo 'no data here' >&2; exit 4");
    CHECK(exited.exit_code == 1);
    CHECK(contains(exited.err, "exited with status 4"));
    CHECK(contains(exited.err, "no data here"));
    const auto at_once = f.modeler("false");
    CHECK(at_once.exit_code == 1);
    CHECK(contains(at_once.err, "the curator `false` exited with status 1 before its handshake"));
    const auto garbage = f.modeler("echo hello");
    CHECK(contains(garbage.err, "began with 'hello'"));
    const auto mismatch = f.modeler(R"(echo '{"protocol":"dpbo-curator","version":1,"rows":41,"sense":"maximise"}')");
    CHECK(mismatch.exit_code == 2);
    CHECK(contains(mismatch.err, "holds 41 rows but candidates"));
    CHECK(contains(mismatch.err, "has 40"));
    const auto babble = f.modeler(hello + "echo 'not json at all'");
    CHECK(babble.exit_code == 1);
    CHECK(contains(babble.err, "answered 'not json at all'"));
    CHECK(contains(babble.err, "not valid JSON"));
    const auto wrong_count = f.modeler(hello + R"(while read line; do echo '{"values":[1,2]}'; done)");
    CHECK(wrong_count.exit_code == 1);
    CHECK(contains(wrong_count.err, "answered 2 values for 3 rows"));
    const auto not_finite = f.modeler(hello + R"(while read line; do echo '{"values":["x","x","x"]}'; done)");
    CHECK(contains(not_finite.err, "expected a finite number"));
    const auto refuses = f.modeler(hello + R"(while read line; do echo '{"error":"the vault is shut"}'; done)");
    CHECK(refuses.exit_code == 1);
    CHECK(contains(refuses.err, "the vault is shut"));
    CHECK(contains(refuses.err, "refused {\"rows\":["));
    CHECK(seconds_since(started) < 4.0);

    const auto half = run_dpbo({"run", "--algorithm", "po-gp-ucb", "--candidates", f.z, "--out", f.dir.path() + "/h"});
    CHECK(half.exit_code == 2);
    CHECK(contains(half.err, "--candidates needs --curator"));
    const auto mixed = run_dpbo({"run", "--algorithm", "po-gp-ucb", "--objective", "branin", "--candidates", f.z,
                                 "--curator", "false", "--out", f.dir.path() + "/x"});
    CHECK(mixed.exit_code == 2);
    CHECK(contains(mixed.err, "--objective branin with --candidates and --curator"));
    const auto twice = run_dpbo({"run", "--algorithm", "po-gp-ucb", "--candidates", f.z, "--curator", "false", "--set",
                                 "objective.command=true", "--out", f.dir.path() + "/y"});
    CHECK(twice.exit_code == 2);
    CHECK(contains(twice.err, "--set objective.command with --candidates and --curator"));
}

TEST_CASE("cli curator: a curator program that hangs or outlives its input never holds the modeler") {
    ModelerFixture f;
    // No handshake, or no answer, within objective.timeout: an error, and the program is killed at once.
    auto started = std::chrono::steady_clock::now();
    const auto silent = f.modeler("sleep 10", {"--set", "objective.timeout=1"});
    CHECK(silent.exit_code == 1);
    CHECK(contains(silent.err, "the curator `sleep 10` sent no handshake within 1 s"));
    const auto slow = f.modeler(f.hello + "sleep 20", {"--set", "objective.timeout=1"});
    CHECK(slow.exit_code == 1);
    CHECK(contains(slow.err, "sent no answer within 1 s"));
    // Two 1 s timeouts: far below the programs' 10 s and 20 s sleeps, with room for a loaded machine
    // (4 s was exceeded once with four builds sharing two cores).
    CHECK(seconds_since(started) < 8.0);
    // One that ignores the end of its input (and SIGTERM) is killed after a 2 s grace, not waited for.
    started = std::chrono::steady_clock::now();
    const auto ignores_input =
        f.modeler(f.hello + R"(trap '' TERM HUP; while read line; do echo '{"values":[1]}'; done; sleep 10)");
    CHECK(contains(ignores_input.err, "answered 1 values for 3 rows"));
    CHECK(seconds_since(started) < 8.0);  // the 2 s grace, far below its 10 s sleep
}
