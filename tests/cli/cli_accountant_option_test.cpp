// `--accountant NAME` on `dpbo run` and `dpbo study create`, and `accountant = NAME` in a config
// file: any algorithm's run can be composed by the accountant the user names; the algorithm's and the
// mechanisms' preferences stay the default; an accountant that cannot compose the run's releases is
// refused by name.
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

nlohmann::json read_result(const std::filesystem::path& dir) {
    std::ifstream in(dir / "result.json");
    return nlohmann::json::parse(in);
}

// Private random search: 20 values released through the Gaussian mechanism at μ = 0.5 each.
std::vector<std::string> private_random_search(const std::string& out) {
    return {"run",
            "--algorithm",
            "random-search",
            "--objective",
            "branin",
            "--mechanism",
            "gaussian",
            "--set",
            "mechanism.mu=0.5",
            "--set",
            "algorithm.value_sensitivity=0.1",
            "--set",
            "algorithm.budget=20",
            "--seed",
            "3",
            "--out",
            out};
}

}  // namespace

TEST_CASE("cli --accountant: the default run is composed by the accountant its mechanism asks for") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(private_random_search(dir.path()));
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = read_result(dir.path());
    CHECK(result["privacy"]["hypothetical"]["notion"] == "mu-GDP");
    CHECK_FALSE(result["job"].contains("accountant"));
}

TEST_CASE("cli --accountant rdp: a random search's Gaussian releases composed in Renyi DP, recorded in the job") {
    TemporaryDirectory dir;
    auto arguments = private_random_search(dir.path());
    arguments.insert(arguments.end(), {"--accountant", "rdp"});
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = read_result(dir.path());
    CHECK(result["job"]["accountant"]["name"] == "rdp");
    const auto& claim = result["privacy"]["hypothetical"];
    CAPTURE(claim.dump());
    CHECK(claim["notion"] != "mu-GDP");
    // The released values are the same draws: the accountant only composes.
    TemporaryDirectory plain;
    REQUIRE(run_dpbo(private_random_search(plain.path())).exit_code == 0);
    CHECK(read_result(plain.path())["released"] == result["released"]);
}

TEST_CASE("cli --accountant in a config file and with settings") {
    TemporaryDirectory dir;
    const auto config = std::filesystem::path(dir.path()) / "job.ini";
    std::ofstream(config) << "algorithm = random-search\nobjective = branin\nmechanism = gaussian\naccountant = rdp\n"
                             "seed = 3\n[mechanism]\nmu = 0.5\n[algorithm]\nvalue_sensitivity = 0.1\nbudget = 20\n"
                             "[accountant]\ndelta = 1e-6\n";
    const auto out = std::filesystem::path(dir.path()) / "out";
    const auto r = run_dpbo({"run", "--config", config.string(), "--out", out.string()});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = read_result(out);
    CHECK(result["job"]["accountant"]["name"] == "rdp");
    CHECK(result["job"]["accountant"]["parameters"]["delta"].get<double>() == doctest::Approx(1e-6));
}

TEST_CASE("cli --accountant: an accountant that cannot compose the run's releases is refused by name") {
    TemporaryDirectory dir;
    auto arguments = private_random_search(dir.path());
    arguments.insert(arguments.end(), {"--accountant", "basic"});
    const auto r = run_dpbo(arguments);
    CAPTURE(r.err);
    CHECK(r.exit_code != 0);
    // The Gaussian mechanism at μ = 0.5 states μ-GDP events, which the basic accountant cannot compose.
    CHECK(contains(r.err, "accountant 'basic'"));
    CHECK(contains(r.err, "'gdp' event"));
}

TEST_CASE("cli --accountant: not an accountant, or an unknown one, is a usage error naming it") {
    TemporaryDirectory dir;
    auto arguments = private_random_search(dir.path());
    arguments.insert(arguments.end(), {"--accountant", "laplace"});
    const auto wrong_kind = run_dpbo(arguments);
    CHECK(wrong_kind.exit_code == 2);
    CHECK(contains(wrong_kind.err, "'laplace'"));
    CHECK(contains(wrong_kind.err, "accountant"));
    arguments.back() = "no-such-accountant";
    const auto unknown = run_dpbo(arguments);
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "no-such-accountant"));
}

TEST_CASE("cli --accountant: an algorithm's own accountant role takes it (dp-gd composed in rdp)") {
    TemporaryDirectory dir;
    const auto r =
        run_dpbo({"run", "--algorithm", "dp-gd", "--objective", "huber-regression", "--set", "algorithm.mu=0.9",
                  "--set", "algorithm.iterations=9", "--seed", "4", "--accountant", "rdp", "--out", dir.path()});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(read_result(dir.path())["job"]["accountant"]["name"] == "rdp");
}

TEST_CASE("cli study create --accountant: the study records the accountant it composes with") {
    TemporaryDirectory dir;
    const auto study = (std::filesystem::path(dir.path()) / "s.db").string();
    const auto created =
        run_dpbo({"study", "create", study, "--algorithm", "random-search", "--objective", "branin", "--mechanism",
                  "gaussian", "--set", "mechanism.mu=0.5", "--set", "algorithm.value_sensitivity=0.1", "--set",
                  "algorithm.budget=4", "--seed", "1", "--accountant", "rdp"});
    CAPTURE(created.err);
    REQUIRE(created.exit_code == 0);
    const auto shown = run_dpbo({"study", "show", study, "--json"});
    CAPTURE(shown.err);
    REQUIRE(shown.exit_code == 0);
    CHECK(contains(shown.out, "\"rdp\""));
}
