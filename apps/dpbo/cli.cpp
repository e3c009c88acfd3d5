#include "cli.hpp"

#include <iostream>

#include <boost/dll/runtime_symbol_info.hpp>

namespace dpbo::cli {

po::options_description common_options(CommonOptions& common) {
    po::options_description options("common options");
    options.add_options()
        ("plugin-path", po::value(&common.plugin_paths)->composing(),
         "also search this directory for plugins, before DPBO_PLUGIN_PATH and the installed ones (repeatable)")
        ("json", po::bool_switch(&common.json), "print machine-readable JSON on stdout")
        ("help,h", po::bool_switch(&common.help), "describe this command");
    return options;
}

void load_plugins(PluginRegistry& registry, const CommonOptions& common) {
    std::error_code ec;
    const auto executable = boost::dll::program_location(ec);
    registry.load(plugin_search_path(common.plugin_paths, ec ? std::filesystem::path() : executable));
}

po::variables_map parse_command(const std::vector<std::string>& arguments, const po::options_description& options,
                                const po::positional_options_description* positional) {
    po::variables_map values;
    auto parser = po::command_line_parser(arguments).options(options);
    if (positional != nullptr) parser.positional(*positional);
    else parser.positional(po::positional_options_description());
    po::store(parser.run(), values);
    po::notify(values);
    return values;
}

void print_json(const json& value) { std::cout << value.dump(2) << "\n"; }

}  // namespace dpbo::cli
