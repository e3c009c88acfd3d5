// Roles as data, end to end: test-two-releases (tests/test_plugins) declares two mechanism roles
// and an accountant role in its own file, and the command line, `dpbo info`, the job record and the
// ledger follow from that declaration with no edit anywhere else.
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

std::vector<std::string> job(const std::string& out, std::vector<std::string> extra) {
    std::vector<std::string> arguments = {"run",       "--algorithm",   "test-two-releases",         "--objective",
                                          "quadratic", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR, "--out",
                                          out};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

nlohmann::json result_in(const std::string& dir) {
    std::ifstream in(std::filesystem::path(dir) / "result.json");
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("cli roles: dpbo info lists the roles an algorithm declares") {
    const auto r = run_dpbo({"info", "test-two-releases", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR, "--json"});
    REQUIRE(r.exit_code == 0);
    const auto info = nlohmann::json::parse(r.out);
    REQUIRE(info["roles"].size() == 3);
    CHECK(info["roles"][0]["name"] == "values_release");
    CHECK(info["roles"][0]["kind"] == "mechanism");
    CHECK(info["roles"][1]["default_parameters"]["epsilon"] == "0.25");
    CHECK(info["roles"][2]["name"] == "accountant");
    CHECK(info["roles"][2]["default"] == "basic");
    const auto text = run_dpbo({"info", "test-two-releases", "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR});
    CHECK(contains(text.out, "--mean_release"));
}

TEST_CASE("cli roles: --ROLE MODULE and --set ROLE.KEY=VALUE reach the algorithm and the statement composes both") {
    TemporaryDirectory dir;
    const auto r =
        run_dpbo(job(dir.path(), {"--values_release", "gaussian", "--set", "values_release.epsilon=1", "--set",
                                  "values_release.delta=1e-5", "--set", "mean_release.epsilon=0.5"}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto result = result_in(dir.path());
    CHECK(result["job"]["values_release"]["name"] == "gaussian");
    CHECK(result["job"]["mean_release"]["name"] == "laplace");
    CHECK(result["job"]["mean_release"]["parameters"]["epsilon"] == 0.5);
    CHECK(result["job"]["accountant"]["name"] == "basic");
    // Basic composition of a (1, 1e-5)-DP and a 0.5-DP release: (1.5, 1e-5)-DP, as the ledger spent it.
    CHECK(result["privacy"]["notion"] == "(epsilon, delta)-DP");
    CHECK(result["privacy"]["epsilon"].get<double>() == doctest::Approx(1.5).epsilon(1e-9));
    CHECK(result["privacy"]["delta"].get<double>() == doctest::Approx(1e-5).epsilon(1e-9));
}

TEST_CASE("cli roles: the accountant role is the run's accountant, and an unknown role is refused") {
    TemporaryDirectory dir;
    // gdp composes Gaussian releases only: the Laplace release is refused by the accountant the user chose.
    const auto wrong = run_dpbo(job(dir.path() + "/gdp", {"--accountant", "gdp"}));
    CHECK(wrong.exit_code != 0);
    CHECK(contains(wrong.err, "gdp"));
    CHECK(contains(wrong.err, "laplace"));
    const auto unknown = run_dpbo(job(dir.path() + "/unknown", {"--value_release", "laplace"}));
    CHECK(unknown.exit_code == 2);
    CHECK(contains(unknown.err, "unknown role 'value_release'"));
    CHECK(contains(unknown.err, "did you mean 'values_release'"));
    // A config file names a role's module at the top and sets its parameters in its section.
    const std::string config = dir.path() + "/job.ini";
    std::ofstream(config) << "algorithm = test-two-releases\nobjective = quadratic\nmean_release = laplace\n"
                             "[mean_release]\nepsilon = 2\n";
    const auto from_file = run_dpbo(
        {"run", "--config", config, "--plugin-path", DPBO_TEST_FLAWED_PLUGIN_DIR, "--out", dir.path() + "/config"});
    REQUIRE_MESSAGE(from_file.exit_code == 0, from_file.err);
    CHECK(result_in(dir.path() + "/config")["privacy"]["epsilon"].get<double>() == doctest::Approx(2.5));
}

TEST_CASE("cli roles: --budget refuses the second role's release and keeps the first") {
    TemporaryDirectory dir;
    const auto r = run_dpbo(job(dir.path(), {"--budget", "epsilon=0.6"}));
    CHECK(r.exit_code != 0);
    CHECK(contains(r.err, "epsilon=0.6"));
    const auto result = result_in(dir.path());
    CHECK(result["status"] == "refused");
    CHECK(result["privacy"]["epsilon"].get<double>() == doctest::Approx(0.5));
}
