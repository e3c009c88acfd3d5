#pragma once
// How the commands that take a job (`dpbo run`, `dpbo audit`) read it: module names, ROLE.KEY=VALUE
// settings from --set and from an INI --config file (the command line wins), and --seed.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dpbo/host/runner.hpp"

namespace dpbo::cli {

struct JobOptions {
    std::string algorithm, objective, surrogate, acquisition, mechanism, config, out;
    std::vector<std::string> settings;  // --set ROLE.KEY=VALUE
    std::string seed_text;
    std::string budget;  // --budget as typed (dpbo run)
    std::size_t repeat = 1;
};

// "role.key=value" from --set or a config file; `source` names where it came from in errors.
// Throws ValidationError for a malformed key, an unknown role or a key set twice.
void apply_setting(JobSpec& job, const std::string& key, const std::string& value, const std::string& source);
// ROLE.KEY=VALUE as given to --set.
void apply_assignment(JobSpec& job, const std::string& assignment);

// Program_options' INI form: top-level keys are the command's options, [role] sections (or dotted
// keys) are module parameters. What `given` holds from the command line wins over the file.
void read_config(const std::string& file, JobOptions& options, const po::variables_map& given, JobSpec& job);

// The job's module settings: the --config file's, then every --set (names are applied by the caller).
JobSpec job_settings(JobOptions& options, const po::variables_map& given);

// --algorithm, --objective, --surrogate, --acquisition, --mechanism, --set and --config.
void add_module_options(po::options_description& options, JobOptions& job);
// Names the components given by --surrogate, --acquisition and --mechanism; their --set settings may
// already have created them, unnamed.
void name_components(JobSpec& job, const JobOptions& options);

// A whole number ≥ 0 given to `option` (text as typed); throws ValidationError naming both otherwise.
std::uint64_t parse_whole_number(const std::string& text, const std::string& option);
// --seed: a non-negative integer.
std::uint64_t parse_seed(const std::string& text);

}  // namespace dpbo::cli
