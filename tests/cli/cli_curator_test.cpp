// PO-GP-UCB with two parties through the CLI: `dpbo curator release` writes the released rows, a
// modeler's `dpbo run --candidates … --curator '…'` searches them and asks a curator program in
// another process for the responses, and every way the curator can fail is a clear error, fast.
#include <doctest/doctest.h>

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
    return {"--objective", "table", "--set", "objective.file=" + rows, "--set", "objective.columns=x,y",
            "--set", "objective.response=worth", "--set", "objective.bounds=0:4,0:7"};
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
    CHECK(std::filesystem::exists(dir.path() + "/release/curator_only.json"));

    // The modeler's run: the curator is a separate `dpbo curator answer` process.
    std::vector<std::string> answer = {DPBO_EXECUTABLE, "curator", "answer"};
    for (const auto& s : table_settings(rows)) answer.push_back(s);
    const auto modeler = run_dpbo({"run", "--algorithm", "po-gp-ucb", "--candidates",
                                   dir.path() + "/release/released_rows.csv", "--curator", quoted(answer),
                                   "--set", "algorithm.budget=12", "--set", "algorithm.initial_points=3", "--seed", "1",
                                   "--out", dir.path() + "/modeler"});
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

TEST_CASE("cli curator: every way a curator program fails is a clear error within seconds") {
    TemporaryDirectory dir;
    const std::string rows = write_rows(dir.path());
    std::vector<std::string> release = {"curator", "release"};
    for (const auto& s : table_settings(rows)) release.push_back(s);
    for (const auto& s : {"--seed", "3", "--out"}) release.push_back(s);
    release.push_back(dir.path() + "/release");
    REQUIRE(run_dpbo(release).exit_code == 0);
    const std::string z = dir.path() + "/release/released_rows.csv";
    const auto modeler = [&](const std::string& command, const std::vector<std::string>& extra = {}) {
        std::vector<std::string> arguments = {"run", "--algorithm", "po-gp-ucb", "--candidates", z, "--curator",
                                              command, "--set", "algorithm.budget=8", "--set",
                                              "algorithm.initial_points=3", "--seed", "1", "--out",
                                              dir.path() + "/m" + std::to_string(std::rand())};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        return run_dpbo(arguments, {}, 30);
    };
    const std::string hello = R"(echo '{"protocol":"dpbo-curator","version":1,"rows":40,"sense":"maximise"}'; )";
    const auto exited = modeler("echo 'no data here' >&2; exit 4");
    CHECK(exited.exit_code == 1);
    CHECK(contains(exited.err, "exited with status 4"));
    CHECK(contains(exited.err, "no data here"));
    const auto garbage = modeler("echo hello");
    CHECK(contains(garbage.err, "began with 'hello'"));
    const auto mismatch = modeler(R"(echo '{"protocol":"dpbo-curator","version":1,"rows":41,"sense":"maximise"}')");
    CHECK(mismatch.exit_code == 2);
    CHECK(contains(mismatch.err, "holds 41 rows but candidates"));
    const auto wrong_count = modeler(hello + R"(while read line; do echo '{"values":[1,2]}'; done)");
    CHECK(wrong_count.exit_code == 1);
    CHECK(contains(wrong_count.err, "answered 2 values for 3 rows"));
    const auto not_finite = modeler(hello + R"(while read line; do echo '{"values":["x","x","x"]}'; done)");
    CHECK(contains(not_finite.err, "expected a finite number"));
    const auto slow = modeler(hello + "sleep 20", {"--set", "objective.timeout=1"});
    CHECK(slow.exit_code == 1);
    CHECK(contains(slow.err, "sent no answer within 1 s"));
    const auto half = run_dpbo({"run", "--algorithm", "po-gp-ucb", "--candidates", z, "--out", dir.path() + "/h"});
    CHECK(half.exit_code == 2);
    CHECK(contains(half.err, "--candidates needs --curator"));
}
