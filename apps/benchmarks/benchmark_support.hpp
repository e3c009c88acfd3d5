#pragma once
// What every benchmark program shares: CPU clocks, the build tree's plugins, running a job in
// memory, and robust summaries.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <armadillo>

#include "dpbo/algorithm.hpp"
#include "dpbo/util/cpu_clock.hpp"
#include "dpbo/host/registry.hpp"

namespace dpbo::bench {

using dpbo::process_cpu_seconds;
using dpbo::thread_cpu_seconds;

// limit_blas_threads() as the dpbo command does (idle BLAS threads would be charged as CPU time);
// a DPBO_BLAS_THREADS it refuses is reported as "PROGRAM: why" on stderr, and false returned.
bool limit_blas_threads_or_report(const char* program);

// The build tree's plugins, loaded once.
PluginRegistry& registry();

// Runs one algorithm on one objective with the given components, seeded, in memory.
RunResult run_once(const std::string& algorithm, const std::map<std::string, std::string>& algorithm_parameters,
                   const std::string& objective, const std::map<std::string, std::string>& objective_parameters,
                   const std::string& surrogate, const std::map<std::string, std::string>& surrogate_parameters,
                   const std::string& acquisition, const std::map<std::string, std::string>& acquisition_parameters,
                   std::uint64_t seed);

// A module for one of an algorithm's roles: its name and parameters.
struct RoleModule {
    std::string name;
    std::map<std::string, std::string> parameters;
};

// Runs one algorithm on an already-built objective, seeded, in memory, as `dpbo run` does: each
// declared role gets the module in `roles` or its default, and the ledger the accountant the run's
// releases ask for (create_run_accountant). Returns the result and the thread CPU seconds of
// algorithm->run() alone (the objective's construction is the caller's).
struct TimedRun {
    RunResult result;
    double cpu_seconds = 0.0;
};
TimedRun run_with_roles(const std::string& algorithm, const std::map<std::string, std::string>& algorithm_parameters,
                        Objective& objective, const std::map<std::string, RoleModule>& roles, std::uint64_t seed);

double median(std::vector<double> values);

// A fresh folder under $TMPDIR (else /tmp) named `stem`-XXXXXX, for files the benchmark hands to
// dpbo by name, removed with everything in it when the object goes (on return and on exceptions;
// a killed benchmark leaves it).
class ScratchFolder {
public:
    explicit ScratchFolder(const std::string& stem);
    ~ScratchFolder();
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace dpbo::bench
