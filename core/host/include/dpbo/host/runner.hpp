#pragma once
// Runs a job: creates (and thereby validates) every module before anything runs, opens the output
// folder (its job record and lock: output_folder.hpp), then runs the repeats, writing each repeat's
// result.json and trace.csv atomically. A repeat whose result is already in the output folder for
// the same job is kept, not run again, so a long job resumes.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dpbo/privacy_ledger.hpp"
#include "dpbo/result.hpp"

namespace dpbo {

class Accountant;
class Evaluator;
class ModuleFactory;
class PluginRegistry;
class RoleModules;
class RunObserver;
struct Role;

struct ModuleChoice {
    std::string name;
    std::map<std::string, std::string> parameters;
};

// Evaluation by the other ranks of an MPI job (dpbo run under mpirun): the number of ranks in all,
// recorded in the result as job.mpi_ranks since a randomised objective's values depend on how the
// batches are split, and a fresh evaluator for each repeat that runs, given the repeat's index.
struct DistributedEvaluation {
    std::size_t ranks = 0;
    std::function<std::unique_ptr<Evaluator>(std::size_t repeat)> make_evaluator;
};

struct JobSpec {
    ModuleChoice algorithm;
    ModuleChoice objective;
    // The modules given for the algorithm's roles, by role name. A choice without a name carries
    // settings for the role's default module.
    std::map<std::string, ModuleChoice> roles;
    std::optional<std::uint64_t> seed;    // none: experiment seed and privacy noise from the OS
    std::optional<PrivacyBudget> budget;  // none: every release the algorithm makes is composed
    // The dataset's lifetime ledger (--ledger FILE, lifetime_ledger.hpp); empty: none. Every charge
    // of every repeat is also charged there, before its noise is drawn.
    std::filesystem::path ledger;
    std::size_t repeat = 1;
    // Threads evaluating each batch (ParallelEvaluator); 1: serial. An objective that is not
    // thread-safe is built once more per extra worker.
    std::size_t workers = 1;
    // Set when the batches are evaluated by other processes (dpbo run under mpirun): each repeat's
    // evaluator comes from it instead.
    std::optional<DistributedEvaluation> distributed;
    std::filesystem::path out_dir;  // empty: nothing written
    // out_dir was chosen by dpbo (results/ALGORITHM-OBJECTIVE-TIME), not the user: the same command
    // run again writes into a new folder, so resuming needs --out naming this one.
    bool out_dir_is_default = false;
};

struct RepeatOutcome {
    std::size_t index = 0;                                     // 0-based
    bool resumed = false;                                      // taken from an earlier run's files
    std::string json;                                          // the result.json text
    std::string headline;                                      // one-line privacy headline
    std::string privacy_description;                           // multi-line statement
    std::vector<std::pair<std::string, std::string>> summary;  // key figures, for printing
    std::filesystem::path result_file;
};

struct JobReport {
    std::vector<RepeatOutcome> repeats;
};

// Observer factory: the CLI gives each repeat a fresh progress display.
using ObserverFor = std::function<RunObserver&(std::size_t repeat_index)>;

// A reproducible seed for stream `stream` of repeat `index` of a job seeded with `seed` (splitmix64 of
// distinct inputs): the experiment seed is stream 1, the privacy-noise key stream 2.
std::uint64_t repeat_seed(std::uint64_t seed, std::size_t index, std::uint64_t stream);

// The run's accountant: the module of the algorithm's accountant role when it declares one (DP-GIBO,
// DP-GD: gdp, reporting at their equivalent_delta); otherwise the accountant the run's mechanisms ask
// for (PrivateRelease::accountant() of its mechanism and selection roles: gdp for μ-GDP releases,
// basic for ε- or (ε, δ)-DP ones), refusing releases that ask for different ones; otherwise rdp when
// the objective's trials are private learners (their DP-SGD events need it), and gdp for the rest.
// `dpbo audit` and the test helpers run algorithms with the same rule.
// `owner` names the algorithm in errors ("algorithm 'dp-gibo'").
std::shared_ptr<Accountant> create_run_accountant(ModuleFactory& factory, const std::string& owner,
                                                  const std::vector<Role>& declared, const RoleModules& roles,
                                                  bool private_trials = false);

// The job as every result records it: each module with its validated parameters and defaults, the
// seed, the budget. ValidationError for bad names or parameters.
nlohmann::ordered_json describe_job(PluginRegistry& registry, const JobSpec& job);

// Throws ValidationError (bad names, parameters, combinations, sizes beyond the machine's memory, an
// output folder that is not this job's or is in use by another run) before running anything; RunError for failures during a run; BudgetExceeded when
// a release would exceed job.budget — after writing that repeat's result.json (status "refused",
// stop_reason "budget", the statement of what was spent and the releases made until then).
JobReport run_job(PluginRegistry& registry, const JobSpec& job, const ObserverFor& observer_for);

}  // namespace dpbo
