// Trials that are private learners under mpirun: worker ranks get each slice's trial-noise key from
// rank 0 (the key --workers derives for the same slice) and send back each point's events, which
// rank 0 charges. So `mpirun -np K dpbo run` over the dpsgd objective in trial mode releases what
// `--workers K-1` releases with the same seed, and states the same composition of every trial.
#include <doctest/doctest.h>

#include <unistd.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "test_support.hpp"

using dpbo::test::CommandResult;
using dpbo::test::run_dpbo;
using dpbo::test::run_program;
using dpbo::test::TemporaryDirectory;

namespace {

CommandResult run_mpi_ranks(int ranks, const std::vector<std::string>& arguments) {
    std::vector<std::string> all = {
        "-np", std::to_string(ranks), "--oversubscribe", "--mca", "pml", "ob1", "--mca", "odls_base_sigkill_timeout",
        "0",   DPBO_EXECUTABLE};
    all.insert(all.end(), arguments.begin(), arguments.end());
    // mpirun refuses to run as root unless told, as the suite does in containers and CI.
    std::map<std::string, std::string> environment = {{"DPBO_PLUGIN_PATH", ""}};
    if (geteuid() == 0) environment.insert({{"OMPI_ALLOW_RUN_AS_ROOT", "1"}, {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"}});
    return run_program(DPBO_MPIEXEC, all, environment, 60);
}

nlohmann::json result_of(const std::string& folder) {
    std::ifstream in(folder + "/result.json");
    return nlohmann::json::parse(in);
}

std::vector<std::string> trial_job(const std::string& out) {
    return {"run",
            "--algorithm",
            "random-search",
            "--set",
            "algorithm.budget=4",
            "--set",
            "algorithm.batch=4",
            "--objective",
            "dpsgd",
            "--set",
            "objective.trial=private",
            "--set",
            "objective.training_records=1200",
            "--set",
            "objective.test_records=300",
            "--set",
            "objective.validation_records=200",
            "--set",
            "objective.trial_lot_size=100",
            "--set",
            "objective.max_epochs=2",
            "--accountant",
            "rdp",
            "--seed",
            "4",
            "--out",
            out};
}

}  // namespace

TEST_CASE("cli mpi trials: private trials on 3 ranks draw what --workers 2 draws and are all charged") {
    TemporaryDirectory dir;
    auto threads = trial_job(dir.path() + "/threads");
    threads.insert(threads.end(), {"--workers", "2"});
    const auto with_workers = run_dpbo(threads);
    CAPTURE(with_workers.err);
    REQUIRE(with_workers.exit_code == 0);
    const auto distributed = run_mpi_ranks(3, trial_job(dir.path() + "/mpi"));
    CAPTURE(distributed.err);
    REQUIRE(distributed.exit_code == 0);
    const nlohmann::json by_threads = result_of(dir.path() + "/threads");
    const nlohmann::json by_ranks = result_of(dir.path() + "/mpi");
    CHECK(by_ranks["released"] == by_threads["released"]);
    CHECK(by_ranks["trial_events"] == by_threads["trial_events"]);
    CHECK(by_ranks["trial_events"].size() == 4);
    CHECK(by_ranks["privacy"]["hypothetical"]["equivalent_epsilon_delta"] ==
          by_threads["privacy"]["hypothetical"]["equivalent_epsilon_delta"]);
    CHECK(by_ranks["privacy"]["hypothetical"]["mechanism"].get<std::string>().find("composition of 4 trials") !=
          std::string::npos);
}
