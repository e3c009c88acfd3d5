// The papers' experiments ship as config files (plugins/algorithms/dp-gibo/experiments,
// plugins/algorithms/dp-ucb/experiments, plugins/algorithms/dpareto/experiments and
// plugins/algorithms/po-gp-ucb/experiments). Each one must keep running as the modules evolve: here
// every config runs one shortened repeat through the `dpbo` command, and a private one must state
// the μ (DP-GIBO, DP-GD) or the (2ε, 2δ) conditional on Assumption 1 (dp-ucb) its file asks for.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

// The first "key = value" line for `key` in the file's top part or its [algorithm] section.
std::string setting(const fs::path& file, const std::string& key) {
    std::ifstream in(file);
    std::string line;
    const std::regex pattern("^\\s*" + key + "\\s*=\\s*(\\S+)\\s*$");
    std::smatch match;
    while (std::getline(in, line))
        if (std::regex_match(line, match, pattern)) return match[1];
    return {};
}

// Settings that shorten each algorithm's run to a few evaluations.
const std::map<std::string, std::vector<std::string>> kShortRun = {
    {"dp-gibo", {"algorithm.iterations=2"}},
    {"dp-gd", {"algorithm.iterations=2"}},
    {"random-search", {"algorithm.budget=3"}},
    {"gp-ucb", {"algorithm.budget=12"}},
    {"gibo", {"algorithm.budget=3"}},
    {"dp-ucb", {"algorithm.budget=5"}},
    {"dpareto", {"algorithm.budget=7", "algorithm.initial_points=5"}},
    {"po-gp-ucb", {"algorithm.budget=8"}},
    {"grid-search", {"algorithm.per_dimension=2"}}};
// ... and each DPareto oracle's evaluations to a small fraction of the data and repetitions.
const std::map<std::string, std::vector<std::string>> kShortObjective = {
    {"dpsgd",
     {"objective.training_records=1024", "objective.test_records=1000", "objective.repetitions=1",
      "objective.max_epochs=4"}},
    {"bolt-on-logreg", {"objective.training_records=1000", "objective.test_records=1000", "objective.repetitions=2"}},
    {"svt", {"objective.repetitions=2"}},
    {"mlp",
     {"objective.training_images=4000", "objective.test_images=500", "objective.repetitions=1",
      "objective.max_epochs=2"}}};

}  // namespace

TEST_CASE("cli experiments: every shipped experiment config runs and states its privacy") {
    const fs::path algorithms = fs::path(DPBO_SOURCE_DIR) / "plugins" / "algorithms";
    std::map<std::string, std::vector<fs::path>> configs_of;
    for (const std::string owner : {"dp-gibo", "dp-ucb", "dpareto", "po-gp-ucb"})
        for (const auto& entry : fs::directory_iterator(algorithms / owner / "experiments"))
            if (entry.path().extension() == ".ini") configs_of[owner].push_back(entry.path());
    REQUIRE(configs_of["dp-gibo"].size() >= 10);
    REQUIRE(configs_of["dp-ucb"].size() >= 2);
    REQUIRE(configs_of["dpareto"].size() >= 18);
    REQUIRE(configs_of["po-gp-ucb"].size() >= 8);
    std::vector<fs::path> configs;
    for (const auto& [owner, files] : configs_of) configs.insert(configs.end(), files.begin(), files.end());
    for (const fs::path& config : configs) {
        CAPTURE(config.filename().string());
        const std::string algorithm = setting(config, "algorithm");
        REQUIRE(kShortRun.count(algorithm) == 1);
        dpbo::test::TemporaryDirectory out;
        std::vector<std::string> arguments{"run", "--config", config.string(), "--repeat",
                                           "1",   "--out",    out.path(),      "--json"};
        std::vector<std::string> shortening = kShortRun.at(algorithm);
        if (const auto found = kShortObjective.find(setting(config, "objective")); found != kShortObjective.end())
            shortening.insert(shortening.end(), found->second.begin(), found->second.end());
        for (const std::string& assignment : shortening) {
            arguments.push_back("--set");
            arguments.push_back(assignment);
        }
        const auto r = dpbo::test::run_dpbo(arguments);
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        // One repeat prints its result as an object.
        const auto result = nlohmann::json::parse(r.out);
        REQUIRE(result.is_object());
        const std::string mu = setting(config, "mu");
        if (algorithm == "dp-gibo" || algorithm == "dp-gd") {
            // The configs are seeded, so the guarantee is hypothetical (see the runner's tests).
            CHECK(result["privacy"]["notion"] == "not private");
            CHECK(result["privacy"]["hypothetical"]["notion"] == "mu-GDP");
            CHECK(result["privacy"]["hypothetical"]["mu"].get<double>() == doctest::Approx(std::stod(mu)));
        } else if (algorithm == "dp-ucb" && setting(config, "variant") != "lipschitz") {
            // Two releases at (ε, δ) each, conditional on Assumption 1 (Kusner et al. Corollary 1).
            const auto& claim = result["privacy"]["hypothetical"];
            CHECK(result["privacy"]["notion"] == "not private");
            CHECK(claim["notion"].get<std::string>().find("(epsilon, delta)-DP conditional on Assumption 1") == 0);
            CHECK(claim["epsilon"].get<double>() == doctest::Approx(2.0 * std::stod(setting(config, "epsilon"))));
            CHECK(claim["delta"].get<double>() == doctest::Approx(2.0 * std::stod(setting(config, "delta"))));
        } else if (algorithm == "dp-ucb") {
            // Algorithm 3: one Laplace release, ε-DP given the objective's declared constants.
            CHECK(result["privacy"]["hypothetical"]["epsilon"].get<double>() ==
                  doctest::Approx(std::stod(setting(config, "epsilon"))));
        } else {
            CHECK(result["privacy"]["notion"] == "not private");
        }
    }
}
