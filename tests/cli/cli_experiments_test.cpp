// The paper's experiments ship as config files (plugins/algorithms/dp-gibo/experiments). Each one
// must keep running as the modules evolve: here every config runs one shortened repeat through the
// `dpbo` command, and a private one must state the μ its file asks for.
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

// A setting that shortens each algorithm's run to a few evaluations.
const std::map<std::string, std::string> kShortRun = {
    {"dp-gibo", "algorithm.iterations=2"}, {"dp-gd", "algorithm.iterations=2"},
    {"random-search", "algorithm.budget=3"}, {"gp-ucb", "algorithm.budget=12"},
    {"gibo", "algorithm.budget=3"}};

}  // namespace

TEST_CASE("cli experiments: every shipped experiment config runs and states its privacy") {
    const fs::path folder = fs::path(DPBO_SOURCE_DIR) / "plugins" / "algorithms" / "dp-gibo" / "experiments";
    std::vector<fs::path> configs;
    for (const auto& entry : fs::directory_iterator(folder))
        if (entry.path().extension() == ".ini") configs.push_back(entry.path());
    REQUIRE(configs.size() >= 10);
    for (const fs::path& config : configs) {
        CAPTURE(config.filename().string());
        const std::string algorithm = setting(config, "algorithm");
        REQUIRE(kShortRun.count(algorithm) == 1);
        dpbo::test::TemporaryDirectory out;
        const auto r = dpbo::test::run_dpbo({"run", "--config", config.string(), "--repeat", "1", "--set",
                                             kShortRun.at(algorithm), "--out", out.path(), "--json"});
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
        } else {
            CHECK(result["privacy"]["notion"] == "not private");
        }
    }
}
