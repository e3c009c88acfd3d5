#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// Runs `dpbo run` with arguments, expects exit 2 and that stderr names `part`.
void check_refused(const std::vector<std::string>& arguments, const std::string& part) {
    TemporaryDirectory dir;
    std::vector<std::string> all = {"run", "--out", dir.path()};
    all.insert(all.end(), arguments.begin(), arguments.end());
    const auto r = run_dpbo(all);
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, part));
    // Nothing was written for a refused job.
    CHECK(std::filesystem::is_empty(dir.path()));
}

}  // namespace

TEST_CASE("cli run: the default job prints a summary with a privacy statement and writes result.json") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--out", dir.path()});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "dp-gibo on normal-location"));
    CHECK(contains(r.out, "privacy: 2-GDP"));
    CHECK(contains(r.out, "protects:"));
    CHECK(contains(r.out, "released:"));
    CHECK(contains(r.out, "assumes:"));
    CHECK(contains(r.err, "default job"));
    std::ifstream in(std::filesystem::path(dir.path()) / "result.json");
    const auto result = nlohmann::json::parse(in);
    CHECK(result["privacy"]["notion"] == "mu-GDP");
    CHECK(result["privacy"]["mu"] == doctest::Approx(2.0));
    CHECK(result["job"]["surrogate"]["parameters"]["kernel"] == "polynomial");
    CHECK(result["randomness"]["reproducible"] == false);
    // Not a terminal: no progress bar on stderr.
    CHECK_FALSE(contains(r.err, "[#"));
}

TEST_CASE("cli run: settings refine the default job, whose components keep their configuration") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--set", "algorithm.iterations=5", "--set", "surrogate.noise_variance=1e-4",
                             "--seed", "2", "--out", dir.path()});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    std::ifstream in(std::filesystem::path(dir.path()) / "result.json");
    const auto result = nlohmann::json::parse(in);
    CHECK(result["job"]["algorithm"]["parameters"]["iterations"] == 5);
    CHECK(result["job"]["surrogate"]["parameters"]["kernel"] == "polynomial");
    CHECK(result["job"]["surrogate"]["parameters"]["noise_variance"] == doctest::Approx(1e-4));
    CHECK(result["evaluations"] == 15);
}

TEST_CASE("cli summary: medians over the repeats of a finished job, and clear refusals") {
    TemporaryDirectory dir;
    const auto run = run_dpbo({"run", "--algorithm", "dp-gibo", "--objective", "normal-location", "--set",
                               "algorithm.iterations=4", "--seed", "3", "--repeat", "3", "--out", dir.path()});
    REQUIRE(run.exit_code == 0);
    const auto r = run_dpbo({"summary", dir.path(), "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto summary = nlohmann::json::parse(r.out);
    CHECK(summary["repeats"] == 3);
    CHECK(summary["privacy"][0] ==
          "not private (reproducible run: noise known to anyone with the seed; with secret noise: 1-GDP)");
    std::vector<double> distances;
    for (const char* repeat : {"repeat-001", "repeat-002", "repeat-003"}) {
        std::ifstream in(std::filesystem::path(dir.path()) / repeat / "result.json");
        distances.push_back(nlohmann::json::parse(in)["evaluation_only"]["distance_to_optimum"]["value"].get<double>());
    }
    std::sort(distances.begin(), distances.end());
    CHECK(summary["evaluation_only"]["distance_to_optimum"]["median"].get<double>() == distances[1]);
    CHECK(summary["evaluation_only"]["distance_to_optimum"]["min"].get<double>() == distances[0]);
    CHECK(summary["evaluation_only"]["distance_to_optimum"]["count"] == 3);

    TemporaryDirectory empty;
    const auto refused = run_dpbo({"summary", empty.path()});
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, empty.path()));
    CHECK(contains(refused.err, "no result.json"));
}

TEST_CASE("cli run: combines modules, --set, --seed, --repeat and --json") {
    TemporaryDirectory dir;
    const std::vector<std::string> args = {"run",
                                           "--algorithm",
                                           "grid-search",
                                           "--objective",
                                           "rosenbrock",
                                           "--set",
                                           "objective.dim=3",
                                           "--set",
                                           "algorithm.per_dimension=5",
                                           "--seed",
                                           "9",
                                           "--repeat",
                                           "2",
                                           "--json",
                                           "--out",
                                           dir.path()};
    const auto r = run_dpbo(args);
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto results = nlohmann::json::parse(r.out);
    REQUIRE(results.size() == 2);
    CHECK(results[0]["evaluations"] == 125);
    CHECK(results[0]["privacy"]["notion"] == "not private");
    CHECK(results[0]["randomness"]["reproducible"] == true);
    CHECK(std::filesystem::exists(std::filesystem::path(dir.path()) / "repeat-002" / "trace.csv"));

    // Run again into the same folder: both repeats are kept, not rerun.
    const auto again =
        run_dpbo({"run", "--algorithm", "grid-search", "--objective", "rosenbrock", "--set", "objective.dim=3", "--set",
                  "algorithm.per_dimension=5", "--seed", "9", "--repeat", "2", "--out", dir.path()});
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "(kept)"));
}

TEST_CASE("cli run: a config file takes the same keys, the command line wins") {
    TemporaryDirectory dir;
    const auto config = std::filesystem::path(dir.path()) / "job.ini";
    std::ofstream(config) << "algorithm = random-search\nobjective = quadratic\nseed = 4\n"
                             "[algorithm]\nbudget = 12\n[objective]\ndim = 3\n";
    const auto out = std::filesystem::path(dir.path()) / "out";
    const auto r =
        run_dpbo({"run", "--config", config.string(), "--set", "algorithm.budget=8", "--out", out.string(), "--json"});
    CAPTURE(r.err);
    REQUIRE(r.exit_code == 0);
    const auto result = nlohmann::json::parse(r.out);
    CHECK(result["evaluations"] == 8);
    CHECK(result["job"]["objective"]["parameters"]["dim"] == 3);
    CHECK(result["job"]["seed"] == 4);

    std::ofstream(config) << "algoritm = random-search\n";
    const auto bad = run_dpbo({"run", "--config", config.string(), "--out", out.string()});
    CHECK(bad.exit_code == 2);
    CHECK(contains(bad.err, "unknown key 'algoritm'"));
}

TEST_CASE("cli run: every kind of bad input exits 2 naming the key or value") {
    check_refused({"--algorithm", "random-serch", "--objective", "branin"}, "did you mean 'random-search'");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budgit=3"},
                  "unknown parameter 'budgit'");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=many"},
                  "'budget' = 'many' is not an integer");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=0"},
                  "'budget' = '0' is out of range");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--mechanism", "gaussian"}, "mu");
    check_refused(
        {"--algorithm", "random-search", "--objective", "branin", "--mechanism", "gaussian", "--set", "mechanism.mu=1"},
        "value_sensitivity");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--set", "objectiv.dim=2"},
                  "unknown role 'objectiv'");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--set", "budget"}, "ROLE.KEY=VALUE");
    check_refused({"--algorithm", "random-search", "--objective", "branin", "--surrogate", "gaussian"},
                  "unknown role 'surrogate' for algorithm 'random-search'");
    check_refused({"--algorithm", "random-search"}, "missing: --objective");
    check_refused({"--algorithm", "branin", "--objective", "branin"}, "'branin' is a objective, not a algorithm");
    check_refused({"--seed", "-3"}, "--seed '-3'");
    check_refused({"--repeat", "0"}, "--repeat");
    check_refused({"--config", "/nonexistent/job.ini"}, "/nonexistent/job.ini");
    check_refused({"--frobnicate"}, "frobnicate");
}

TEST_CASE("cli run: a module that fails while starting exits 1 naming it and its file") {
    TemporaryDirectory dir;
    const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", "exploding-objective", "--out",
                             dir.path(), "--plugin-path", DPBO_TEST_BROKEN_PLUGIN_DIR});
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "objective 'exploding-objective'"));
    CHECK(contains(r.err, "broken-throwing_constructor.so"));
}

TEST_CASE("cli run: a module in a plugin file the manifest cache has not seen is found, a misspelt one listed") {
    // A cache of its own: the first run fills it with the installed plugins only.
    TemporaryDirectory cache, plugins, out;
    const std::map<std::string, std::string> environment = {{"XDG_CACHE_HOME", cache.path()}};
    const std::vector<std::string> job = {
        "run", "--algorithm", "random-search", "--set", "algorithm.budget=2", "--seed", "1"};
    const auto run = [&](const std::string& objective, const std::string& folder, bool with_plugins) {
        std::vector<std::string> arguments = job;
        for (const std::string& word :
             {std::string("--objective"), objective, std::string("--out"), out.path() + "/" + folder})
            arguments.push_back(word);
        if (with_plugins) {
            arguments.push_back("--plugin-path");
            arguments.push_back(plugins.path());
        }
        return run_dpbo(arguments, environment);
    };
    REQUIRE(run("branin", "first", false).exit_code == 0);
    std::filesystem::copy_file(std::filesystem::path(DPBO_TEST_BROKEN_PLUGIN_DIR) / "broken-accepted_sphere.so",
                               std::filesystem::path(plugins.path()) / "broken-accepted_sphere.so");
    const auto unseen = run("extra-sphere", "unseen", true);
    CHECK(unseen.exit_code == 0);
    CHECK(contains(unseen.out, "random-search on extra-sphere"));
    // Now in the cache: found again through it.
    CHECK(run("extra-sphere", "cached", true).exit_code == 0);
    const auto misspelt = run("extra-spere", "misspelt", true);
    CHECK(misspelt.exit_code == 2);
    CHECK(contains(misspelt.err, "did you mean 'extra-sphere'"));
    CHECK(contains(misspelt.err, "branin"));
}

TEST_CASE("cli run: --workers 2 gives the serial result for a deterministic objective, bad counts refused") {
    TemporaryDirectory dir;
    const auto run = [&](const std::string& workers) {
        return run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=40",
                         "--seed", "3", "--workers", workers, "--json", "--out", dir.path() + "/w" + workers});
    };
    const auto one = run("1");
    const auto two = run("2");
    REQUIRE(one.exit_code == 0);
    REQUIRE(two.exit_code == 0);
    const auto serial = nlohmann::json::parse(one.out);
    const auto parallel = nlohmann::json::parse(two.out);
    CHECK(parallel["released"] == serial["released"]);
    CHECK(parallel["job"]["workers"] == 2);
    CHECK_FALSE(serial["job"].contains("workers"));
    for (const std::string bad : {"0", "257", "two"}) {
        const auto refused = run(bad);
        CHECK(refused.exit_code == 2);
        CHECK(contains(refused.err, "--workers"));
    }
}
