// Issue 29's battery: a plugin's abort or segfault inside a call (its constructor, its evaluate) ends
// `dpbo run` with exit status 1 after naming the plugin, not with the signal (134, 139), and the
// journal is intact: the same command run again resumes it and gives the uninterrupted result.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string hostile_file(const std::string& stem) {
    return fs::weakly_canonical(fs::path(DPBO_TEST_HOSTILE_PLUGIN_DIR) / (stem + ".so")).string();
}

nlohmann::json result_without_timing(const fs::path& folder) {
    std::ifstream in(folder / "result.json");
    nlohmann::json result = nlohmann::json::parse(in);
    result.erase("timing");
    return result;
}

// random-search in five batches of ten over an objective that crashes at its third evaluate call
// unless `marker` exists (it creates it as it crashes).
std::vector<std::string> crash_once_job(const fs::path& out, const fs::path& marker, const std::string& crash,
                                        const std::vector<std::string>& extra = {}) {
    std::vector<std::string> arguments = {"run",
                                          "--algorithm",
                                          "random-search",
                                          "--set",
                                          "algorithm.budget=50",
                                          "--set",
                                          "algorithm.batch=10",
                                          "--objective",
                                          "crashes-once-objective",
                                          "--set",
                                          "objective.marker=" + marker.string(),
                                          "--set",
                                          "objective.crash=" + crash,
                                          "--seed",
                                          "4",
                                          "--out",
                                          out.string(),
                                          "--plugin-path",
                                          DPBO_TEST_HOSTILE_PLUGIN_DIR};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    return arguments;
}

}  // namespace

TEST_CASE("battery proc: a plugin that aborts or dereferences null while created ends the run with exit 1, named") {
    struct Case {
        std::string objective, file, signal;
    };
    const std::vector<Case> cases = {
        {"aborting-constructor-objective", "hostile-constructor_aborts", "SIGABRT"},
        {"crashing-constructor-objective", "hostile-constructor_null_dereference", "SIGSEGV"},
    };
    for (const auto& [objective, file, signal] : cases) {
        CAPTURE(objective);
        TemporaryDirectory dir;
        const auto r = run_dpbo({"run", "--algorithm", "random-search", "--objective", objective, "--seed", "1",
                                 "--out", dir.path() + "/out", "--plugin-path", DPBO_TEST_HOSTILE_PLUGIN_DIR},
                                {}, 60);
        CHECK(r.exit_code == 1);
        CHECK_MESSAGE(contains(r.err, "in objective '" + objective + "' (from " + hostile_file(file) +
                                          ") while being created (its constructor)"),
                      r.err);
        CHECK(contains(r.err, "dpbo: fatal signal " + signal));
        CHECK(contains(r.err, "dpbo: stopped by " + signal + " (exit status 1)"));
        // Created before any repeat starts: no journal to speak of.
        CHECK_FALSE(contains(r.err, "run the same command again"));
    }
}

TEST_CASE("battery proc: a plugin's abort or segfault while evaluating ends the run with exit 1, and it resumes") {
    TemporaryDirectory dir;
    const fs::path root = dir.path();
    const fs::path marker = root / "crashed";
    const std::string file = hostile_file("hostile-evaluate_crashes_once");
    for (const std::string crash : {"abort", "segfault"}) {
        for (const std::vector<std::string>& workers : {std::vector<std::string>{}, {"--workers", "2"}}) {
            CAPTURE(crash);
            CAPTURE(workers.size());
            const std::string name = crash + std::to_string(workers.size());
            // The uninterrupted run: the marker is there, nothing crashes.
            std::ofstream(marker) << "present\n";
            const auto whole = run_dpbo(crash_once_job(root / ("whole-" + name), marker, crash, workers), {}, 60);
            REQUIRE_MESSAGE(whole.exit_code == 0, whole.err);

            fs::remove(marker);
            const fs::path out = root / ("crashed-" + name);
            const auto crashed = run_dpbo(crash_once_job(out, marker, crash, workers), {}, 60);
            CHECK(crashed.exit_code == 1);
            const std::string signal = crash == "abort" ? "SIGABRT" : "SIGSEGV";
            CHECK_MESSAGE(contains(crashed.err, "dpbo: fatal signal " + signal), crashed.err);
            CHECK(contains(crashed.err, "in objective 'crashes-once-objective' (from " + file +
                                            ") while evaluating points; the process stops"));
            CHECK_MESSAGE(contains(crashed.err, "dpbo: stopped by " + signal +
                                                    " (exit status 1); everything the run did "
                                                    "until then is in " +
                                                    (out / "journal.sqlite").string() +
                                                    ": run the same command again to resume it"),
                          crashed.err);
            CHECK(fs::exists(out / "journal.sqlite"));
            CHECK_FALSE(fs::exists(out / "result.json"));

            // The same command again: the two batches made before the crash are taken from the journal.
            const auto resumed = run_dpbo(crash_once_job(out, marker, crash, workers), {}, 60);
            REQUIRE_MESSAGE(resumed.exit_code == 0, resumed.err);
            CHECK_MESSAGE(contains(resumed.out, "from its journal: 2 batch(es) and 0 release(s) replayed"),
                          resumed.out);
            CHECK(result_without_timing(out) == result_without_timing(root / ("whole-" + name)));
            CHECK_FALSE(fs::exists(out / "journal.sqlite"));
        }
    }
}
