#pragma once
// How the commands that take a job (`dpbo run`, `dpbo audit`) read it: module names, a module for each
// of the algorithm's roles (--ROLE MODULE), ROLE.KEY=VALUE settings from --set and from an INI --config
// file (the command line wins), and --seed. Roles are whatever the algorithm declares, so nothing here
// names one: the job is checked against the algorithm's declaration when it is resolved.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "dpbo/host/runner.hpp"

namespace dpbo::cli {

struct JobOptions {
    std::string algorithm, objective, config, out;
    std::map<std::string, std::string> role_modules;  // --ROLE MODULE, by role name
    std::vector<std::string> settings;                // --set ROLE.KEY=VALUE
    std::string seed_text;
    std::string budget;  // --budget as typed (dpbo run)
    std::string repeat_text;
    // Where each of seed, out, repeat and budget was given ("--seed", "--config 'F' key 'seed'"),
    // so a value given empty is refused instead of read as "not given".
    std::map<std::string, std::string> given_by;

    bool given(const std::string& key) const { return given_by.count(key) != 0; }
    const std::string& source(const std::string& key) const { return given_by.at(key); }
};

// Takes every `--NAME MODULE` (or `--NAME=MODULE`) whose NAME is not one of `known`'s options out of
// the arguments and records it as the module for role NAME; returns the rest for Program_options.
// Throws ValidationError for a role given twice or without a module name.
std::vector<std::string> take_role_options(const std::vector<std::string>& arguments,
                                           const po::options_description& known, JobOptions& options);

// "role.key=value" from --set or a config file; `source` names where it came from in errors.
// Throws ValidationError for a malformed key or a key set twice.
void apply_setting(JobSpec& job, const std::string& key, const std::string& value, const std::string& source);
// ROLE.KEY=VALUE as given to --set.
void apply_assignment(JobSpec& job, const std::string& assignment);

// Program_options' INI form: top-level keys are the command's options or ROLE = MODULE, [role] sections
// (or dotted keys) are module parameters. What `given` holds from the command line wins over the file.
void read_config(const std::string& file, JobOptions& options, const po::variables_map& given, JobSpec& job);

// The job's module settings: the --config file's, then every --set (names are applied by the caller).
JobSpec job_settings(JobOptions& options, const po::variables_map& given);

// --algorithm, --objective, --set and --config (role options are taken by take_role_options).
void add_module_options(po::options_description& options, JobOptions& job);
// The --help section about --ROLE MODULE, which Program_options does not hold (see take_role_options).
extern const char* const kRoleOptionHelp;
// Names the modules given with --ROLE MODULE; their --set settings may already have created the role's
// entry, unnamed.
void name_roles(JobSpec& job, const JobOptions& options);

// A whole number ≥ 0 given to `option` (text as typed); throws ValidationError naming both otherwise.
std::uint64_t parse_whole_number(const std::string& text, const std::string& option);
// A finite number given to `where` (text as typed); throws ValidationError naming both otherwise.
double parse_finite_number(const std::string& text, const std::string& where);
// --seed: a non-negative integer; `where` names the option or config key it came from.
std::uint64_t parse_seed(const std::string& text, const std::string& where = "--seed");
// The job's seed when one was given (on the command line or in the config), read from its text.
std::optional<std::uint64_t> given_seed(const JobOptions& options);
// The job's repeat count: 1 unless given; a whole number >= 1 when given.
std::size_t given_repeat(const JobOptions& options);

}  // namespace dpbo::cli
