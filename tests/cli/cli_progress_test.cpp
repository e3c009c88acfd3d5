// The progress line of `dpbo run` on a terminal (run under script(1), which gives it one): the best
// value so far where the run releases it, the privacy spent so far from the repeat's ledger, and
// nothing of a private run's exact values.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The last progress line `dpbo run ARGUMENTS` drew on its terminal.
std::string last_progress_line(const std::vector<std::string>& arguments) {
    const std::string script = "/usr/bin/script";  // util-linux, essential on Debian
    REQUIRE(std::filesystem::exists(script));
    std::string command = DPBO_EXECUTABLE;
    for (const std::string& argument : arguments) command += " '" + argument + "'";
    const auto r = dpbo::test::run_program(script, {"-q", "-e", "-c", command, "/dev/null"}, {}, 120);
    CAPTURE(r.out);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::string last;
    std::string line;
    for (const char c : r.out + "\n") {
        if (c == '\r' || c == '\n') {
            if (contains(line, "repeat 1/1 [")) last = line;
            line.clear();
        } else {
            line += c;
        }
    }
    REQUIRE(!last.empty());
    return last;
}

nlohmann::json result_of(const std::string& out) {
    std::ifstream in(out + "/result.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("cli progress: a run that claims nothing shows its best value so far, the one it releases") {
    TemporaryDirectory dir;
    const std::string out = dir.path() + "/run";
    const std::string line =
        last_progress_line({"run", "--algorithm", "gp-ucb", "--set", "algorithm.budget=14", "--set",
                            "algorithm.initial_points=4", "--objective", "branin", "--out", out});
    CAPTURE(line);
    // Four initial points, then one batch of one per iteration: 11 iterations reported, the last drawn.
    CHECK(contains(line, "] 11/11"));
    const std::size_t at = line.find("best ");
    REQUIRE(at != std::string::npos);
    const double shown = std::stod(line.substr(at + 5));
    CHECK(shown == doctest::Approx(result_of(out)["released"]["best_value"]["value"].get<double>()).epsilon(1e-5));
    CHECK(contains(line, "spent nothing yet"));
}

TEST_CASE("cli progress: a private run shows the privacy spent so far and its budget, not its exact values") {
    TemporaryDirectory dir;
    const std::string out = dir.path() + "/run";
    const std::string line = last_progress_line({"run", "--algorithm", "dp-gibo", "--objective", "normal-location",
                                                 "--set", "algorithm.iterations=4", "--budget", "mu=2", "--out", out});
    CAPTURE(line);
    CHECK(contains(line, "4/4"));
    // DP-GIBO's values are evaluation-only: no best value is shown.
    CHECK(!contains(line, "best"));
    // After the last of its four releases the spend is the statement's.
    const std::string headline = result_of(out)["privacy"]["headline"].get<std::string>();
    CHECK(contains(line, "spent " + headline + " of mu=2"));
}
