// `dpbo run` under Open MPI's mpirun (README "Distributed evaluation"): rank 0 runs the job and the
// other ranks evaluate its batches. Batch algorithms give the serial run's released values and trace
// (random search, grid search over a finite set, DPareto's q suggestions, DP-GIBO's per-record
// batches); a randomised
// objective draws what --workers draws; and every failure of a worker rank — its objective's error,
// an objective it cannot build, silence, death — ends the run with a message naming the rank, never
// a hang. mpirun gets --oversubscribe (more ranks than cores) and, as root, the environment it
// wants before it runs as root.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::CommandResult;
using dpbo::test::run_dpbo;
using dpbo::test::run_program;
using dpbo::test::TemporaryDirectory;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
    return n;
}

// How long mpirun lets the other ranks of a failed job handle SIGTERM before it sends SIGKILL.
enum class Grace { kNone, kDefault };

// `dpbo ARGUMENTS` as `ranks` MPI ranks on this machine. Grace::kNone saves the second mpirun waits
// after a rank exits non-zero, for tests in which no rank is left to stop by then.
CommandResult run_mpi(int ranks, const std::vector<std::string>& arguments, Grace grace = Grace::kNone) {
    // ob1, the point-to-point layer over shared memory and TCP, starts in half the time UCX's does.
    std::vector<std::string> all = {"-np", std::to_string(ranks), "--oversubscribe", "--mca", "pml", "ob1"};
    if (grace == Grace::kNone) all.insert(all.end(), {"--mca", "odls_base_sigkill_timeout", "0"});
    all.push_back(DPBO_EXECUTABLE);
    all.insert(all.end(), arguments.begin(), arguments.end());
    // mpirun refuses to run as root unless told, as the suite does in containers and CI.
    const std::map<std::string, std::string> environment =
        geteuid() == 0 ? std::map<std::string, std::string>{{"DPBO_PLUGIN_PATH", ""},
                                                            {"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                                                            {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}}
                       : std::map<std::string, std::string>{{"DPBO_PLUGIN_PATH", ""}};
    return run_program(DPBO_MPIEXEC, all, environment, 60);
}

nlohmann::json result_of(const std::string& folder) {
    std::ifstream in(folder + "/result.json");
    return nlohmann::json::parse(in);
}

// The trace's rows without its timing columns (…_seconds), which differ from run to run.
std::vector<std::string> trace_without_timings(const std::string& folder) {
    std::ifstream in(folder + "/trace.csv");
    std::vector<std::string> rows;
    std::vector<bool> keep;
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> fields;
        std::stringstream cells(line);
        for (std::string cell; std::getline(cells, cell, ',');) fields.push_back(cell);
        if (keep.empty())
            for (const std::string& name : fields)
                keep.push_back(name.size() < 8 || name.compare(name.size() - 8, 8, "_seconds") != 0);
        std::string row;
        for (std::size_t i = 0; i < fields.size() && i < keep.size(); ++i)
            if (keep[i]) row += fields[i] + ",";
        rows.push_back(row);
    }
    return rows;
}

// Runs the job serially and on 3 ranks, each into its own folder, and checks they released the same
// values and traced the same rows.
void check_same_as_serial(const std::vector<std::string>& job) {
    TemporaryDirectory dir;
    std::vector<std::string> serial = {"run"};
    serial.insert(serial.end(), job.begin(), job.end());
    std::vector<std::string> distributed = serial;
    serial.insert(serial.end(), {"--out", dir.path() + "/serial"});
    distributed.insert(distributed.end(), {"--out", dir.path() + "/mpi"});
    const auto one = run_dpbo(serial);
    CAPTURE(one.err);
    REQUIRE(one.exit_code == 0);
    const auto three = run_mpi(3, distributed);
    CAPTURE(three.err);
    REQUIRE(three.exit_code == 0);
    const auto serial_result = result_of(dir.path() + "/serial");
    const auto mpi_result = result_of(dir.path() + "/mpi");
    CHECK(mpi_result["released"] == serial_result["released"]);
    CHECK(mpi_result["evaluations"] == serial_result["evaluations"]);
    CHECK(mpi_result["job"]["mpi_ranks"] == 3);
    CHECK_FALSE(serial_result["job"].contains("mpi_ranks"));
    const auto serial_trace = trace_without_timings(dir.path() + "/serial");
    CHECK(serial_trace.size() > 1);
    CHECK(trace_without_timings(dir.path() + "/mpi") == serial_trace);
    // Only rank 0 prints the summary, and no rank prints an error (Open MPI may warn about the machine).
    CHECK(count(three.out, "dpbo run: ") == 1);
    CHECK_FALSE(contains(three.err, "dpbo"));
}

}  // namespace

TEST_CASE("cli mpi: random search on 3 ranks releases and traces what the serial run does") {
    check_same_as_serial({"--algorithm", "random-search", "--objective", "branin", "--set", "algorithm.budget=40",
                          "--set", "algorithm.batch=10", "--seed", "3"});
}

TEST_CASE("cli mpi: DP-GIBO's per-record batches, grid search and DPareto's q suggestions give the serial result") {
    // normal-location is record-decomposable: DP-GIBO asks for per-record losses, which cross ranks.
    check_same_as_serial(
        {"--algorithm", "dp-gibo", "--objective", "normal-location", "--set", "algorithm.iterations=6", "--seed", "5"});
    // Grid search over a finite set (branin-grid's rows).
    check_same_as_serial({"--algorithm", "grid-search", "--objective", "branin-grid", "--set", "objective.grid=6",
                          "--set", "algorithm.batch=7", "--seed", "2"});
    // Two outputs, three suggestions per batch.
    check_same_as_serial({"--algorithm", "dpareto", "--objective", "svt", "--set", "objective.repetitions=4", "--set",
                          "algorithm.budget=12", "--set", "algorithm.initial_points=6", "--set", "algorithm.batch=3",
                          "--seed", "2"});
}

TEST_CASE("cli mpi: a randomised objective draws on K ranks what --workers K-1 draws") {
    TemporaryDirectory dir;
    const auto job = [&](const std::string& out, const std::string& batch) {
        return std::vector<std::string>{"run",
                                        "--algorithm",
                                        "random-search",
                                        "--objective",
                                        "randomised-quadratic",
                                        "--plugin-path",
                                        DPBO_TEST_FLAWED_PLUGIN_DIR,
                                        "--set",
                                        "algorithm.budget=15",
                                        "--set",
                                        "algorithm.batch=" + batch,
                                        "--seed",
                                        "4",
                                        "--json",
                                        "--out",
                                        dir.path() + "/" + out};
    };
    const auto released = [](const CommandResult& r) {
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        return nlohmann::json::parse(r.out)["released"];
    };
    auto with_workers = job("w2", "5");
    with_workers.insert(with_workers.end(), {"--workers", "2"});
    const auto threads = released(run_dpbo(with_workers));
    CHECK(released(run_mpi(3, job("np3", "5"))) == threads);
    // The values depend on the slicing: the serial run differs from two slices...
    const auto serial = released(run_dpbo(job("serial", "5")));
    CHECK(serial != threads);
    // ...and equals one worker rank's, which draws from the run's own generator and hands it back.
    CHECK(released(run_mpi(2, job("np2", "5"))) == serial);
    // One point per batch: each batch is one slice on 3 ranks too.
    CHECK(released(run_mpi(3, job("np3-single", "1"))) == released(run_dpbo(job("serial-single", "1"))));
}

TEST_CASE("cli mpi: an objective failing on a worker rank stops the run with its error, naming the rank") {
    TemporaryDirectory dir;
    const std::string spec = dir.path() + "/spec.json";
    std::ofstream(spec) << R"({"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":-2,"upper":2}]})";
    const auto r = run_mpi(
        3, {"run", "--algorithm", "random-search", "--objective", "command", "--set",
            "objective.command=echo 'disk full on this node' >&2; exit 4", "--set", "objective.mode=one-shot", "--set",
            "objective.spec=" + spec, "--set", "algorithm.budget=6", "--seed", "1", "--out", dir.path() + "/out"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "dpbo: failed: rank 1 on "));
    CHECK(contains(r.err, "failed evaluating points 1–3 of a batch of 6"));
    CHECK(contains(r.err, "exited with status 4"));
    CHECK(contains(r.err, "disk full on this node"));
    CHECK(count(r.err, "dpbo: failed") == 1);
    CHECK_FALSE(std::filesystem::exists(dir.path() + "/out/result.json"));
}

TEST_CASE("cli mpi: a worker rank that cannot build the objective is named, and bad MPI options are refused") {
    TemporaryDirectory dir;
    // Rank 2 lacks the program's data, as a machine of a hostfile might.
    const std::string program =
        R"(if [ "$OMPI_COMM_WORLD_RANK" = 2 ]; then echo 'data.csv: no such file' >&2; exit 3; fi; )"
        R"(echo '{"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":-2,"upper":2}]}'; )"
        R"(cat >/dev/null)";
    const auto r = run_mpi(3, {"run", "--algorithm", "random-search", "--objective", "command", "--set",
                               "objective.command=" + program, "--seed", "1", "--out", dir.path() + "/out"});
    CAPTURE(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "dpbo: failed: rank 2 on "));
    CHECK(contains(r.err, "could not be created"));
    CHECK(contains(r.err, "data.csv: no such file"));

    // Bad input is refused once, by rank 0, with the usage exit code.
    const auto both = run_mpi(2, {"run", "--algorithm", "random-search", "--objective", "branin", "--workers", "2",
                                  "--out", dir.path() + "/both"});
    CHECK(both.exit_code == 2);
    CHECK(contains(both.err, "--workers 2 under mpirun"));
    CHECK(count(both.err, "dpbo: error") == 1);
    const auto zero = run_mpi(2, {"run", "--algorithm", "random-search", "--objective", "branin", "--mpi-timeout", "0",
                                  "--out", dir.path() + "/zero"});
    CHECK(zero.exit_code == 2);
    CHECK(contains(zero.err, "--mpi-timeout 0: expected a number of seconds greater than 0"));
    const auto alone = run_dpbo({"run", "--algorithm", "random-search", "--objective", "branin", "--mpi-timeout", "5",
                                 "--out", dir.path() + "/alone"});
    CHECK(alone.exit_code == 2);
    CHECK(contains(alone.err, "--mpi-timeout 5: this run was not started by mpirun"));
}

TEST_CASE("cli mpi: a silent worker rank is reported after --mpi-timeout and the MPI job is aborted") {
    TemporaryDirectory dir;
    const std::string spec = dir.path() + "/spec.json";
    std::ofstream(spec) << R"({"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":-2,"upper":2}]})";
    const auto r = run_mpi(
        3, {"run", "--algorithm", "random-search", "--objective", "command", "--set", "objective.command=sleep 3",
            "--set", "objective.mode=one-shot", "--set", "objective.spec=" + spec, "--set", "algorithm.budget=4",
            "--seed", "1", "--mpi-timeout", "0.5", "--out", dir.path() + "/out"});
    CAPTURE(r.err);
    CHECK(r.exit_code != 0);
    CHECK(contains(r.err, "no answer within --mpi-timeout 0.5 s from rank 1 on "));
    CHECK(contains(r.err, "(points 1–2 of a batch of 4)"));
    CHECK(contains(r.err, "aborting the MPI job"));
}

TEST_CASE("cli mpi: a worker rank killed mid-run ends the job with a clear report, and the same command resumes it") {
    TemporaryDirectory dir;
    const std::string spec = dir.path() + "/spec.json";
    std::ofstream(spec) << R"({"protocol":"dpbo-objective","version":1,"space":[{"name":"x","lower":-2,"upper":2}]})";
    const std::string trigger = dir.path() + "/kill";
    const std::string calls = dir.path() + "/calls";
    std::ofstream(trigger) << "armed\n";
    // One worker rank, one batch per repeat: the second call is the second repeat's batch, and it
    // kills the worker while the trigger file exists: the program's grandparent (its parent is the
    // supervisor that ends its process group with the worker).
    const std::string program = "echo >>" + calls + "; if [ -e " + trigger + " ] && [ $(wc -l <" + calls +
                                ") = 2 ]; then kill -9 $(awk '{print $4}' /proc/$PPID/stat); fi; " +
                                R"py(python3 -c "import json,sys; r=json.loads(sys.stdin.readline()); )py"
                                R"py(print(json.dumps({'values':[p[0]**2 for p in r['points']]}))")py";
    const std::vector<std::string> job = {"run",
                                          "--algorithm",
                                          "random-search",
                                          "--objective",
                                          "command",
                                          "--set",
                                          "objective.command=" + program,
                                          "--set",
                                          "objective.mode=one-shot",
                                          "--set",
                                          "objective.spec=" + spec,
                                          "--set",
                                          "algorithm.budget=4",
                                          "--set",
                                          "algorithm.batch=4",
                                          "--repeat",
                                          "2",
                                          "--seed",
                                          "1",
                                          "--out",
                                          dir.path() + "/out"};
    // rank 0 needs mpirun's grace to say why it stops.
    const auto killed = run_mpi(2, job, Grace::kDefault);
    CAPTURE(killed.err);
    CHECK(killed.exit_code != 0);
    CHECK(contains(killed.err, "rank 0 was told to stop (SIGTERM)"));
    CHECK(contains(killed.err, "exited on signal 9"));
    CHECK(std::filesystem::exists(dir.path() + "/out/repeat-001/result.json"));
    CHECK_FALSE(std::filesystem::exists(dir.path() + "/out/repeat-002/result.json"));

    std::filesystem::remove(trigger);
    const auto resumed = run_mpi(2, job);
    CAPTURE(resumed.err);
    REQUIRE(resumed.exit_code == 0);
    CHECK(contains(resumed.out, "repeat 1/2 (kept)"));
    CHECK(std::filesystem::exists(dir.path() + "/out/repeat-002/result.json"));
}
