#pragma once
// Shared pieces of the `dpbo` command: exit codes, plugin discovery options, output helpers.
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "dpbo/host/registry.hpp"

namespace dpbo::cli {

namespace po = boost::program_options;
using json = nlohmann::ordered_json;

// kClaimRefuted: `dpbo audit` found an empirical lower bound above the privacy claim.
enum ExitCode { kSuccess = 0, kRunFailure = 1, kUsageError = 2, kClaimRefuted = 3 };

// --plugin-path (repeatable) and --json, common to every command.
struct CommonOptions {
    std::vector<std::string> plugin_paths;
    bool json = false;
    bool help = false;
};

po::options_description common_options(CommonOptions& common);

// Loads plugins from the search path built from --plugin-path, DPBO_PLUGIN_PATH and the
// directory beside the executable.
void load_plugins(PluginRegistry& registry, const CommonOptions& common);

// Parses a command's arguments; unknown options and stray positionals are usage errors.
po::variables_map parse_command(const std::vector<std::string>& arguments, const po::options_description& options,
                                const po::positional_options_description* positional = nullptr);

void print_json(const json& value);

int command_list(const std::vector<std::string>& arguments);
int command_info(const std::vector<std::string>& arguments);
int command_run(const std::vector<std::string>& arguments);
int command_account(const std::vector<std::string>& arguments);
int command_summary(const std::vector<std::string>& arguments);
int command_report(const std::vector<std::string>& arguments);
int command_audit(const std::vector<std::string>& arguments);
int command_curator(const std::vector<std::string>& arguments);
int command_study(const std::vector<std::string>& arguments);
int command_ask(const std::vector<std::string>& arguments);
int command_tell(const std::vector<std::string>& arguments);
int command_check(const std::vector<std::string>& arguments);

}  // namespace dpbo::cli
