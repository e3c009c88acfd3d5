#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>
#include <fstream>

#include <nlohmann/json.hpp>

#include "dpbo/errors.hpp"
#include "dpbo/observer.hpp"
#include "dpbo/host/runner.hpp"
#include "test_support.hpp"

namespace {

dpbo::JobSpec private_search(const std::filesystem::path& out) {
    dpbo::JobSpec job;
    job.algorithm = {"random-search", {{"budget", "30"}, {"value_sensitivity", "0.1"}}};
    job.objective = {"quadratic", {{"dim", "2"}}};
    job.roles["mechanism"] = dpbo::ModuleChoice{"gaussian", {{"mu", "1"}}};
    job.seed = 42;
    job.out_dir = out;
    return job;
}

dpbo::JobReport run(const dpbo::JobSpec& job) {
    static dpbo::RunObserver quiet;
    return dpbo::run_job(dpbo::test::registry(), job, [](std::size_t) -> dpbo::RunObserver& { return quiet; });
}

nlohmann::json read_json(const std::filesystem::path& file) {
    std::ifstream in(file);
    return nlohmann::json::parse(in);
}

}  // namespace

TEST_CASE("runner: writes result.json and trace.csv with the privacy statement and randomness record") {
    dpbo::test::TemporaryDirectory dir;
    const auto report = run(private_search(dir.path()));
    REQUIRE(report.repeats.size() == 1);
    const auto result = read_json(std::filesystem::path(dir.path()) / "result.json");
    // Seeded: anyone with the seed knows the noise, so the run is headlined as not private and the
    // guarantee it would have with secret noise is kept, marked hypothetical.
    CHECK(result["privacy"]["notion"] == "not private");
    CHECK(result["privacy"]["headline"] ==
          "not private (reproducible run: noise known to anyone with the seed; with secret noise: 1-GDP)");
    const auto& hypothetical = result["privacy"]["hypothetical"];
    CHECK(hypothetical["notion"] == "mu-GDP");
    CHECK(hypothetical["mu"] == 1.0);
    CHECK_FALSE(hypothetical["protected_unit"].get<std::string>().empty());
    CHECK(report.repeats[0].headline == result["privacy"]["headline"]);
    CHECK(report.repeats[0].privacy_description.find("hypothetically, with secret noise") != std::string::npos);
    CHECK(result["timing"]["evaluation_only"] == true);
    CHECK(result["randomness"]["reproducible"] == true);
    CHECK(result["job"]["algorithm"]["parameters"]["budget"] == 30);
    CHECK(result["evaluations"] == 30);
    CHECK(result["released"].contains("best_point"));
    CHECK(std::filesystem::exists(std::filesystem::path(dir.path()) / "trace.csv"));
    // The job's record and lock beside the results, and no temporary file left by the atomic writes.
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir.path()))
        files.push_back(entry.path().filename().string());
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"job.json", "job.lock", "result.json", "trace.csv"});
}

TEST_CASE("runner: the same seed reproduces the release, repeats differ from each other") {
    dpbo::test::TemporaryDirectory a, b;
    auto job_a = private_search(std::filesystem::path(a.path()));
    auto job_b = private_search(std::filesystem::path(b.path()));
    job_a.repeat = job_b.repeat = 2;
    run(job_a);
    run(job_b);
    const auto first = read_json(std::filesystem::path(a.path()) / "repeat-001" / "result.json");
    const auto again = read_json(std::filesystem::path(b.path()) / "repeat-001" / "result.json");
    const auto second = read_json(std::filesystem::path(a.path()) / "repeat-002" / "result.json");
    CHECK(first["released"] == again["released"]);
    CHECK(first["released"] != second["released"]);
}

TEST_CASE("runner: finished repeats are kept on resume, another job's folder is refused") {
    dpbo::test::TemporaryDirectory dir;
    auto job = private_search(dir.path());
    job.repeat = 2;
    run(job);
    const auto file = std::filesystem::path(dir.path()) / "repeat-002" / "result.json";
    const auto before = read_json(file);
    std::filesystem::remove(std::filesystem::path(dir.path()) / "repeat-001" / "result.json");
    const auto report = run(job);
    CHECK_FALSE(report.repeats[0].resumed);
    CHECK(report.repeats[1].resumed);
    CHECK(read_json(file) == before);

    auto other = job;
    other.algorithm.parameters["budget"] = "31";
    CHECK_THROWS_WITH_AS(run(other), doctest::Contains("different job"), dpbo::ValidationError);
}

TEST_CASE("runner: bad combinations are refused before anything runs") {
    dpbo::test::TemporaryDirectory dir;
    auto job = private_search(dir.path());
    job.roles["surrogate"] = dpbo::ModuleChoice{"quadratic", {}};
    CHECK_THROWS_AS(run(job), dpbo::ValidationError);
    job = private_search(dir.path());
    job.repeat = 0;
    CHECK_THROWS_WITH_AS(run(job), doctest::Contains("--repeat"), dpbo::ValidationError);
    job = private_search(dir.path());
    job.roles["mechanism"].parameters["mu"] = "-1";
    CHECK_THROWS_WITH_AS(run(job), doctest::Contains("'mu'"), dpbo::ValidationError);
    CHECK(std::filesystem::is_empty(dir.path()));
}
