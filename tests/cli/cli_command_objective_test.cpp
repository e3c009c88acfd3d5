// The `command` objective end to end: the Python example (sdk/examples/python-objective) through the
// dpbo-objective protocol with dp-gibo (per-record losses), gp-ucb and dpareto (two outputs), a
// one-shot program with a spec file, and every way a program can fail as a clear error, fast.
#include <doctest/doctest.h>

#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::string kExample =
    std::string("python3 ") + DPBO_SOURCE_DIR + "/sdk/examples/python-objective/record_objective.py";

nlohmann::json result_of(const std::string& out) {
    std::ifstream in(out + "/result.json");
    return nlohmann::json::parse(in);
}

dpbo::test::CommandResult run_command(const std::string& out, const std::string& algorithm, const std::string& command,
                                      const std::vector<std::string>& extra = {}) {
    std::vector<std::string> arguments = {
        "run", "--algorithm", algorithm, "--objective", "command", "--set", "objective.command=" + command, "--seed",
        "1",   "--out",       out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return run_dpbo(arguments, {}, 60);
}

}  // namespace

TEST_CASE("cli command objective: a Python objective with per-record losses, one and two outputs") {
    TemporaryDirectory dir;
    const auto gibo = run_command(dir.path() + "/gibo", "dp-gibo", kExample + " --dim 2 --records 20");
    CAPTURE(gibo.err);
    REQUIRE(gibo.exit_code == 0);
    const auto gibo_result = result_of(dir.path() + "/gibo");
    CHECK(gibo_result["privacy"]["hypothetical"]["headline"] == "1-GDP");
    bool trusted = false;
    for (const auto& assumption : gibo_result["privacy"]["hypothetical"]["assumptions"])
        trusted = trusted || contains(assumption.get<std::string>(), "inside the trust boundary");
    CHECK(trusted);

    const auto ucb =
        run_command(dir.path() + "/ucb", "gp-ucb", kExample + " --dim 2", {"--set", "algorithm.budget=15"});
    CAPTURE(ucb.err);
    REQUIRE(ucb.exit_code == 0);
    const auto ucb_result = result_of(dir.path() + "/ucb");
    CHECK(ucb_result["evaluations"] == 15);
    // The records are N(1, I) draws: the loss at the best point found is at least the loss at their mean.
    CHECK(ucb_result["released"]["best_value"]["value"].get<double>() > 0.0);

    const auto pareto = run_command(dir.path() + "/pareto", "dpareto", kExample + " --dim 2 --outputs 2",
                                    {"--set", "algorithm.budget=16", "--set", "algorithm.initial_points=8"});
    CAPTURE(pareto.err);
    REQUIRE(pareto.exit_code == 0);
    CHECK(result_of(dir.path() + "/pareto")["released"]["pareto_values"]["value"].size() >= 1);
}

TEST_CASE("cli command objective: one-shot mode reads its space from a spec file") {
    TemporaryDirectory dir;
    const std::string spec = dir.path() + "/spec.json";
    std::ofstream(spec) << R"({"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":-2,"upper":2}]})";
    const std::string program =
        R"py(python3 -c "import json,sys; r=json.loads(sys.stdin.readline()); print(json.dumps({'values':[p[0]**2 for p in r['points']]}))")py";
    const auto run = run_command(
        dir.path() + "/one", "random-search", program,
        {"--set", "objective.mode=one-shot", "--set", "objective.spec=" + spec, "--set", "algorithm.budget=6"});
    CAPTURE(run.err);
    REQUIRE(run.exit_code == 0);
    const auto result = result_of(dir.path() + "/one");
    const auto& point = result["released"]["best_point"]["value"];
    const double x = point.is_number() ? point.get<double>() : point[0].get<double>();
    CHECK(result["released"]["best_value"]["value"].get<double>() == doctest::Approx(x * x));
    const auto missing =
        run_command(dir.path() + "/two", "random-search", program, {"--set", "objective.mode=one-shot"});
    CHECK(missing.exit_code == 2);
    CHECK(contains(missing.err, "mode = one-shot needs spec = FILE"));
}

TEST_CASE("cli command objective: every way a program fails is a clear error naming it, within seconds") {
    TemporaryDirectory dir;
    const std::string hello =
        R"(echo '{"protocol":"dpbo-objective","version":1,"space":[{"lower":0,"upper":1}],"records":2}'; )";
    int n = 0;
    const auto fails = [&](const std::string& program, const std::string& message,
                           const std::vector<std::string>& extra = {}, const std::string& algorithm = "random-search") {
        CAPTURE(program);
        std::vector<std::string> settings = extra;
        if (algorithm == "random-search") settings.insert(settings.end(), {"--set", "algorithm.budget=3"});
        const auto r = run_command(dir.path() + "/f" + std::to_string(++n), algorithm, program, settings);
        CAPTURE(r.err);
        CHECK(r.exit_code != 0);
        CHECK(contains(r.err, "objective program `"));
        CHECK(contains(r.err, message));
    };
    fails("echo 'cannot open the data' >&2; exit 3", "exited with status 3");
    fails("echo 'cannot open the data' >&2; exit 3", "cannot open the data");
    fails("echo hello", "began with 'hello', which is not JSON");
    fails(R"(echo '{"protocol":"dpbo-objective","version":1,"space":[]}')", "\"space\" must be a non-empty list");
    fails(hello + "while read l; do echo 'not json'; done", "answered 'not json', which is not valid JSON");
    fails(hello + R"(while read l; do echo '{"values":[NaN]}'; done)", "not valid JSON (numbers must be finite)");
    fails(hello + R"(while read l; do echo '{"values":[1]}'; done)", "answered 1 values for 3 points");
    fails(hello + R"(while read l; do echo '{"error":"out of memory"}'; done)",
          "refused a batch of 3 points: out of memory");
    fails(hello + "sleep 20", "sent no answer within 1 s", {"--set", "objective.timeout=1"});
    // The program inherits stdin, stdout and stderr and nothing else dpbo holds open (the shell's own
    // command substitution adds one pipe, fd 3).
    fails(R"sh(echo "fds $(ls /proc/$$/fd | tr '\n' ' ')" >&2; exit 5)sh", "fds 0 1 2 3 ");
    fails(hello + R"(while read l; do echo '{"values":[1],"per_record":[[1]]}'; done)",
          "answered 1 per-record values for point 0; it declared 2 records",
          {"--set", "algorithm.iterations=1", "--set", "algorithm.batch_size=1"}, "dp-gibo");
}
