// dpbo run: combine modules by name into a job, run it, write and summarise the results.
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "cli.hpp"
#include "default_job.hpp"
#include "dpbo/errors.hpp"
#include "dpbo/host/job_modules.hpp"
#include "job_options.hpp"
#include "ledger_option.hpp"
#include "mpi/mpi_module.hpp"
#include "mpi/mpi_worker.hpp"
#include "mpi_loader.hpp"
#include "progress.hpp"

namespace dpbo::cli {

namespace {

std::filesystem::path default_out_dir(const JobSpec& job) {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &utc);
    const std::filesystem::path base =
        std::filesystem::path("results") / fmt::format("{}-{}-{}", job.algorithm.name, job.objective.name, stamp);
    std::filesystem::path candidate = base;
    for (int n = 2; std::filesystem::exists(candidate); ++n) candidate = base.string() + fmt::format("-{}", n);
    return candidate;
}

void print_outcome(const RepeatOutcome& outcome, std::size_t repeats) {
    std::cout << fmt::format("repeat {}/{}{}\n", outcome.index + 1, repeats, outcome.resumed ? " (kept)" : "");
    for (const auto& [key, value] : outcome.summary) std::cout << fmt::format("  {:<34} {}\n", key, value);
    if (!outcome.result_file.empty()) std::cout << fmt::format("  {:<34} {}\n", "result", outcome.result_file.string());
}

// `dpbo run`'s command line as read: the job, and what the command needs besides.
struct RunCommand {
    CommonOptions common;
    JobOptions options;
    JobSpec job;
    std::string help;  // the option descriptions, printed for --help
    double mpi_timeout = mpi::kDefaultTimeoutSeconds;
};

// Every rank of an MPI job reads the command line here, so they agree on the job and refuse bad input
// alike. `runs_job`: this process runs the job (not a worker rank), so it says on stderr when the
// default job runs and names the output folder.
RunCommand read_run_command(const std::vector<std::string>& arguments, bool distributed, bool runs_job) {
    RunCommand command;
    CommonOptions& common = command.common;
    JobOptions& options = command.options;
    std::string candidates;
    std::string curator_command;
    std::string workers_text;
    std::string ledger_text;
    std::string mpi_timeout_text;
    po::options_description described("options");
    add_module_options(described, options);
    add_ledger_option(described, ledger_text);
    described.add_options()(
        "seed", po::value(&options.seed_text),
        "make the run reproducible; privacy noise is then not secure (default: seeds from the OS CSPRNG)")(
        "repeat", po::value(&options.repeat_text), "independent repeats (default 1)")(
        "budget", po::value(&options.budget),
        "privacy budget the run may spend: mu=M (mu-GDP), epsilon=E,delta=D or epsilon=E; the release that "
        "would exceed it is refused before its noise is drawn, and what was released until then is written")(
        "out", po::value(&options.out),
        "output folder (default: results/ALGORITHM-OBJECTIVE-TIME); "
        "finished repeats found there are kept, not rerun")(
        "workers", po::value(&workers_text),
        "threads evaluating each batch (default 1); an objective that is not thread-safe is built once per "
        "worker. A randomised objective's values then depend on the number of workers")(
        "mpi-timeout", po::value(&mpi_timeout_text),
        fmt::format("under mpirun: the longest wait, in seconds, for a worker rank's answer to one batch or for "
                    "its report at the start (default {:g}); a rank silent for longer stops the run with an error "
                    "naming it",
                    mpi::kDefaultTimeoutSeconds)
            .c_str())(
        "candidates", po::value(&candidates),
        "PO-GP-UCB's modeler: the released rows (released_rows.csv of 'dpbo curator release'); with --curator, "
        "short for --objective curator --set objective.candidates=FILE")(
        "curator", po::value(&curator_command),
        "PO-GP-UCB's modeler: the curator program answering row queries (e.g. 'ssh host dpbo curator answer "
        "--objective loan-roi'), short for --set objective.command=COMMAND");
    described.add(common_options(common));
    const po::variables_map given = parse_command(take_role_options(arguments, described, options), described);
    if (common.help) {
        command.help = help_text("dpbo run [--algorithm A --objective O] [--ROLE MODULE ...] [options]", described,
                                 kRoleOptionHelp);
        return command;
    }

    JobSpec& job = command.job;
    job = job_settings(options, given);
    if (given.count("candidates") || given.count("curator")) {
        if (!given.count("candidates") || !given.count("curator"))
            throw ValidationError(
                fmt::format("--{} needs --{}: the modeler searches the released rows and asks the "
                            "curator program for their responses",
                            given.count("candidates") ? "candidates" : "curator",
                            given.count("candidates") ? "curator" : "candidates"));
        if (!options.objective.empty())
            throw ValidationError(
                fmt::format("--objective {} with --candidates and --curator: the curator's rows are "
                            "the objective; leave --objective out",
                            options.objective));
        for (const char* key : {"candidates", "command"})
            if (job.objective.parameters.count(key))
                throw ValidationError(
                    fmt::format("--set objective.{} with --candidates and --curator: they set it; "
                                "give it once",
                                key));
        options.objective = "curator";
        job.objective.parameters["candidates"] = candidates;
        job.objective.parameters["command"] = curator_command;
    }
    const bool default_modules = options.algorithm.empty() && options.objective.empty();
    if (default_modules) {
        // The user's settings refine the default job rather than replace it.
        JobSpec fallback = default_job();
        const auto overlay = [](std::map<std::string, std::string>& base,
                                const std::map<std::string, std::string>& top) {
            for (const auto& [key, value] : top) base[key] = value;
        };
        overlay(fallback.algorithm.parameters, job.algorithm.parameters);
        overlay(fallback.objective.parameters, job.objective.parameters);
        job.algorithm = fallback.algorithm;
        job.objective = fallback.objective;
        // A role the default job configures keeps that configuration unless the user names another
        // module for it; settings the user gives for it are laid on top.
        for (const auto& [role, preset] : fallback.roles) {
            if (options.role_modules.count(role) != 0) continue;
            ModuleChoice merged = preset;
            if (const auto mine = job.roles.find(role); mine != job.roles.end())
                overlay(merged.parameters, mine->second.parameters);
            job.roles[role] = merged;
        }
        if (runs_job)
            std::cerr << fmt::format("dpbo run: no modules named; running the default job ({} on {})\n",
                                     job.algorithm.name, job.objective.name);
    } else if (options.algorithm.empty() || options.objective.empty()) {
        throw ValidationError(
            fmt::format("run needs both --algorithm and --objective (missing: --{}); "
                        "'dpbo run' with neither runs the default job",
                        options.algorithm.empty() ? "algorithm" : "objective"));
    } else {
        job.algorithm.name = options.algorithm;
        job.objective.name = options.objective;
    }
    name_roles(job, options);
    job.seed = given_seed(options);
    if (options.given("budget")) {
        if (options.budget.empty())
            throw ValidationError(
                fmt::format("{} is empty; expected mu=M, epsilon=E,delta=D or epsilon=E", options.source("budget")));
        job.budget = PrivacyBudget::parse(options.budget);
    }
    job.repeat = given_repeat(options);
    job.ledger = read_ledger_option(given, ledger_text);
    if (given.count("workers")) {
        const std::uint64_t workers = parse_whole_number(workers_text, "--workers");
        constexpr std::uint64_t kMostWorkers = 256;
        if (workers == 0 || workers > kMostWorkers)
            throw ValidationError(
                fmt::format("--workers {}: expected a whole number from 1 to {}", workers_text, kMostWorkers));
        job.workers = static_cast<std::size_t>(workers);
    }
    if (distributed && job.workers > 1)
        throw ValidationError(
            fmt::format("--workers {} under mpirun: the worker ranks evaluate the batches; give "
                        "either --workers (threads on one machine) or mpirun -np K (processes), "
                        "not both",
                        workers_text));
    if (given.count("mpi-timeout")) {
        if (!distributed)
            throw ValidationError(
                fmt::format("--mpi-timeout {}: this run was not started by mpirun as several ranks "
                            "(OMPI_COMM_WORLD_SIZE > 1); the option applies only there",
                            mpi_timeout_text));
        command.mpi_timeout = parse_finite_number(mpi_timeout_text, "--mpi-timeout");
        if (command.mpi_timeout <= 0.0)
            throw ValidationError(
                fmt::format("--mpi-timeout {}: expected a number of seconds greater than 0", mpi_timeout_text));
    }
    if (options.given("out") && options.out.empty())
        throw ValidationError(
            fmt::format("{} is empty; name a folder, or leave --out out for the default "
                        "results/ALGORITHM-OBJECTIVE-TIME",
                        options.source("out")));
    if (runs_job) {
        job.out_dir_is_default = options.out.empty();
        job.out_dir = job.out_dir_is_default ? default_out_dir(job) : std::filesystem::path(options.out);
    }
    return command;
}

// A worker rank's job: the objective built from the command line as rank 0 builds it.
std::optional<mpi::WorkerJob> prepare_worker(const std::vector<std::string>& arguments) {
    std::optional<RunCommand> command;
    try {
        command = read_run_command(arguments, true, false);
    } catch (const po::error& e) {
        // Rank 0 meets the same error and reports it as main() does; this is for the record.
        throw ValidationError(fmt::format("dpbo run: {}", e.what()));
    }
    if (command->common.help) return std::nullopt;
    auto registry = std::make_shared<PluginRegistry>();
    load_plugins_on_demand(*registry, command->common);
    auto modules = std::make_shared<JobModules>(*registry, command->job);
    mpi::WorkerJob job;
    // The registry, which holds the plugin libraries, lives as long as the modules that use it.
    job.fresh_objective = [registry, modules] { return modules->create_objective(); };
    job.objective = job.fresh_objective();
    return job;
}

}  // namespace

int command_run(const std::vector<std::string>& arguments) {
    // Under mpirun every rank runs this command; rank 0 runs the job, the others evaluate for it.
    const bool distributed = mpi::launched();
    if (distributed && mpi::module().start() != 0)
        return mpi::module().serve([&] { return prepare_worker(arguments); });

    RunCommand command = read_run_command(arguments, distributed, true);
    if (command.common.help) {
        std::cout << command.help;
        return kSuccess;
    }
    const CommonOptions& common = command.common;
    const JobOptions& options = command.options;
    JobSpec& job = command.job;
    // The folder holds the run's journal too: a run stopped midway resumes only when pointed at it.
    if (job.out_dir_is_default)
        std::cerr << fmt::format(
            "dpbo run: writing into {0} (no --out given); a run stopped midway resumes with --out {0}\n",
            job.out_dir.string());
    if (distributed) {
        mpi::Module& module = mpi::module();
        module.set_timeout(command.mpi_timeout);
        job.distributed = DistributedEvaluation{static_cast<std::size_t>(module.ranks()),
                                                [&module](std::size_t repeat) { return module.evaluator(repeat); }};
    }

    PluginRegistry registry;
    load_plugins_on_demand(registry, common);
    std::vector<std::unique_ptr<ProgressBar>> bars;
    const JobReport report = run_job(registry, job, [&](std::size_t index) -> RunObserver& {
        bars.push_back(std::make_unique<ProgressBar>(fmt::format("repeat {}/{}", index + 1, job.repeat)));
        return *bars.back();
    });

    if (common.json) {
        if (report.repeats.size() == 1) {
            std::cout << report.repeats.front().json << "\n";
        } else {
            json all = json::array();
            for (const auto& r : report.repeats) all.push_back(json::parse(r.json));
            print_json(all);
        }
        return kSuccess;
    }
    std::cout << fmt::format("dpbo run: {} on {}", job.algorithm.name, job.objective.name);
    for (const auto& [role, module] : options.role_modules) std::cout << fmt::format(", {} {}", role, module);
    std::cout << "\n";
    for (const auto& outcome : report.repeats) print_outcome(outcome, report.repeats.size());
    for (const auto& outcome : report.repeats) {
        if (outcome.resumed) continue;
        std::cout << outcome.privacy_description;
        break;
    }
    if (std::all_of(report.repeats.begin(), report.repeats.end(), [](const auto& r) { return r.resumed; }))
        std::cout << fmt::format("privacy: {} (from the kept results)\n", report.repeats.front().headline);
    return kSuccess;
}

}  // namespace dpbo::cli
