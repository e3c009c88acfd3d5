// Output folders are dpbo's only when they hold its job record; another job's folder, a user's
// folder, a folder in use and a different repeat count are refused; concurrent runs never compute a
// repeat twice and print what is on disk.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;
using dpbo::test::run_dpbo;
using dpbo::test::TemporaryDirectory;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> quick_job(const std::string& out, const std::string& repeats = "1") {
    return {"run", "--algorithm", "random-search", "--objective", "quadratic", "--seed",
            "5",   "--repeat",    repeats,         "--out",       out};
}

}  // namespace

TEST_CASE("output folder: a folder holding a user's files and no job record is refused untouched") {
    TemporaryDirectory dir;
    const fs::path out = fs::path(dir.path()) / "mine";
    fs::create_directories(out);
    std::ofstream(out / "trace.csv") << "my,own\n1,2\n";
    const auto r = run_dpbo(quick_job(out.string()));
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, out.string()));
    CHECK(contains(r.err, "trace.csv"));
    CHECK(contains(r.err, "job.json"));
    CHECK(read(out / "trace.csv") == "my,own\n1,2\n");
    CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator()) == 1);
}

TEST_CASE("output folder: another job's folder is refused naming the settings that differ") {
    TemporaryDirectory dir;
    const std::string out = dir.path() + "/job";
    REQUIRE(run_dpbo({"run", "--algorithm", "grid-search", "--objective", "quadratic", "--seed", "5", "--repeat", "2",
                      "--out", out})
                .exit_code == 0);
    const auto r = run_dpbo(quick_job(out));
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "job.algorithm.name = \"random-search\" here, \"grid-search\" there"));
    CHECK(contains(r.err, "repeats = 1 here, 2 there"));
    // Nothing of the refused job was added.
    CHECK_FALSE(fs::exists(fs::path(out) / "result.json"));
}

TEST_CASE("output folder: --repeat 1 then --repeat 3 into one folder is refused, and the first job resumes") {
    TemporaryDirectory dir;
    const std::string out = dir.path() + "/job";
    REQUIRE(run_dpbo(quick_job(out, "1")).exit_code == 0);
    const std::string before = read(fs::path(out) / "result.json");
    const auto r = run_dpbo(quick_job(out, "3"));
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "repeats = 3 here, 1 there"));
    CHECK_FALSE(fs::exists(fs::path(out) / "repeat-001"));
    const auto again = run_dpbo(quick_job(out, "1"));
    CHECK(again.exit_code == 0);
    CHECK(contains(again.out, "(kept)"));
    CHECK(read(fs::path(out) / "result.json") == before);
}

TEST_CASE("output folder: stale temporaries are removed on resume, and the job record is dpbo's") {
    TemporaryDirectory dir;
    const fs::path out = fs::path(dir.path()) / "job";
    REQUIRE(run_dpbo(quick_job(out.string(), "2")).exit_code == 0);
    const auto record = nlohmann::json::parse(read(out / "job.json"));
    CHECK(record["format"] == "dpbo job record");
    CHECK(record["format_version"] == 1);
    CHECK(record["identity"]["repeats"] == 2);
    CHECK(record["identity"]["job"]["algorithm"]["name"] == "random-search");
    CHECK(record["identity"]["job"]["seed"] == 5);
    // As a kill during fsync leaves them: a finished repeat's temporary and an unfinished one's.
    std::ofstream(out / "repeat-001" / "result.json.tmp.Ab12Cd") << "{\"half";
    fs::remove(out / "repeat-002" / "result.json");
    std::ofstream(out / "repeat-002" / "trace.csv.tmp.x9Y8z7") << "iteration,";
    const auto r = run_dpbo(quick_job(out.string(), "2"));
    CAPTURE(r.err);
    CHECK(r.exit_code == 0);
    CHECK_FALSE(fs::exists(out / "repeat-001" / "result.json.tmp.Ab12Cd"));
    CHECK_FALSE(fs::exists(out / "repeat-002" / "trace.csv.tmp.x9Y8z7"));
    CHECK(fs::exists(out / "repeat-002" / "result.json"));
}

TEST_CASE("output folder: a folder written before job records existed is adopted when all its results are this job's") {
    TemporaryDirectory dir;
    const fs::path out = fs::path(dir.path()) / "job";
    REQUIRE(run_dpbo(quick_job(out.string(), "2")).exit_code == 0);
    // The previous release wrote only the results.
    fs::remove(out / "job.json");
    fs::remove(out / "job.lock");
    const auto kept = run_dpbo(quick_job(out.string(), "2"));
    CAPTURE(kept.err);
    CHECK(kept.exit_code == 0);
    CHECK(contains(kept.out, "repeat 2/2 (kept)"));
    CHECK(fs::exists(out / "job.json"));
    // One of another job's results makes the folder not this job's.
    fs::remove(out / "job.json");
    auto other = quick_job(out.string(), "2");
    other[6] = "6";  // --seed 6
    const auto refused = run_dpbo(other);
    CHECK(refused.exit_code == 2);
    CHECK(contains(refused.err, "seed = 6 here, 5 there"));
    CHECK_FALSE(fs::exists(out / "job.json"));
}

TEST_CASE("output folder: a folder in use is refused naming the holder's pid") {
    TemporaryDirectory dir;
    const fs::path out = fs::path(dir.path()) / "job";
    REQUIRE(run_dpbo(quick_job(out.string())).exit_code == 0);
    const int fd = ::open((out / "job.lock").c_str(), O_RDWR | O_CLOEXEC);
    REQUIRE(fd >= 0);
    REQUIRE(::flock(fd, LOCK_EX | LOCK_NB) == 0);
    const std::string pid = std::to_string(::getpid());
    REQUIRE(::ftruncate(fd, 0) == 0);
    REQUIRE(::pwrite(fd, pid.data(), pid.size(), 0) == static_cast<ssize_t>(pid.size()));
    const auto r = run_dpbo(quick_job(out.string()));
    ::close(fd);
    CAPTURE(r.err);
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "in use by another dpbo run (pid " + pid));
    CHECK(run_dpbo(quick_job(out.string())).exit_code == 0);
}

TEST_CASE("output folder: two concurrent runs into one folder compute no repeat twice and print what is on disk") {
    TemporaryDirectory dir;
    const fs::path out = fs::path(dir.path()) / "job";
    // Unseeded, so a repeat computed twice would differ from the one on disk.
    const std::vector<std::string> job = {
        "run",      "--algorithm", "random-search", "--objective", "quadratic", "--set", "algorithm.budget=20000",
        "--repeat", "4",           "--out",         out.string(),  "--json"};
    auto first = std::async(std::launch::async, [&] { return run_dpbo(job); });
    auto second = std::async(std::launch::async, [&] { return run_dpbo(job); });
    const std::vector<dpbo::test::CommandResult> results = {first.get(), second.get()};
    // A repeat computed twice would be overwritten on disk by the later computation, so the run that
    // printed the earlier one would print values that are not on disk (the runs are unseeded).
    std::size_t succeeded = 0;
    for (const auto& r : results) {
        CAPTURE(r.err);
        if (r.exit_code != 0) {
            // The later run is refused before anything runs, naming the folder in use and its holder.
            CHECK(r.exit_code == 2);
            CHECK(contains(r.err, "in use by another dpbo run (pid "));
            continue;
        }
        ++succeeded;
        const auto printed = nlohmann::json::parse(r.out);
        REQUIRE(printed.size() == 4);
        for (std::size_t i = 0; i < 4; ++i) {
            const fs::path file = out / ("repeat-00" + std::to_string(i + 1)) / "result.json";
            CHECK(printed[i] == nlohmann::json::parse(read(file)));
        }
    }
    CHECK(succeeded >= 1);
}

TEST_CASE("output folder: a finished run's folder asked for a longer run says why a run is not extended") {
    TemporaryDirectory dir;
    const std::string out = dir.path() + "/job";
    const auto run = [&](const std::string& budget, const std::string& seed) {
        return run_dpbo({"run", "--algorithm", "random-search", "--set", "algorithm.budget=" + budget, "--objective",
                         "quadratic", "--seed", seed, "--out", out});
    };
    REQUIRE(run("4", "5").exit_code == 0);
    const std::string before = read(fs::path(out) / "result.json");
    const auto longer = run("8", "5");
    CAPTURE(longer.err);
    CHECK(longer.exit_code == 2);
    CHECK(contains(longer.err, "job.algorithm.parameters.budget = 8 here, 4 there"));
    CHECK(contains(longer.err, "A run is not extended with another budget or iteration count"));
    CHECK(contains(longer.err, "charged in full"));
    CHECK(read(fs::path(out) / "result.json") == before);
    // Another difference is not told about extending.
    const auto other = run("4", "6");
    CHECK(other.exit_code == 2);
    CHECK(contains(other.err, "job.seed = 6 here, 5 there"));
    CHECK_FALSE(contains(other.err, "not extended"));
}
