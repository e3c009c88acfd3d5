#pragma once
// Shared pieces of the `dpbo` command: exit codes, plugin discovery options, output helpers.
#include <string>
#include <string_view>
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
// The same search for a command that asks for its modules by name (PluginRegistry::load_on_demand):
// only the files of the modules it asks for are checked and read, which is most of a short run's
// start-up; a listing or a name no cached manifest declares takes in the whole search.
void load_plugins_on_demand(PluginRegistry& registry, const CommonOptions& common);
// Where load_plugins takes the installed plugins from when the commands run inside another program
// (the Python package): beside this dpbo executable's place (bin/dpbo → lib/dpbo/plugins), not
// beside the program's own.
void set_dpbo_location(const std::filesystem::path& executable);

// Parses a command's arguments; unknown options and stray positionals are usage errors.
po::variables_map parse_command(const std::vector<std::string>& arguments, const po::options_description& options,
                                const po::positional_options_description* positional = nullptr);

void print_json(const json& value);

// A command's answer to --help, on stdout: "usage: " and its synopsis, which starts with the full command
// path ("dpbo study create FILE ..."); then `about` when given (what the command does, or options
// Program_options does not hold, such as --ROLE MODULE); then its options.
void print_help(std::string_view synopsis, const po::options_description& options, std::string_view about = {});
// The same text, for a command that prints it later.
std::string help_text(std::string_view synopsis, const po::options_description& options, std::string_view about = {});

}  // namespace dpbo::cli
