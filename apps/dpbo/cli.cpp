#include "cli.hpp"

#include <algorithm>
#include <iostream>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>

namespace dpbo::cli {

po::options_description common_options(CommonOptions& common) {
    po::options_description options("common options");
    options.add_options()(
        "plugin-path", po::value(&common.plugin_paths)->composing(),
        "also search this directory for plugins, before DPBO_PLUGIN_PATH and the installed ones (repeatable)")(
        "json", po::bool_switch(&common.json), "print machine-readable JSON on stdout")(
        "help,h", po::bool_switch(&common.help), "describe this command");
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
    if (positional != nullptr)
        parser.positional(*positional);
    else
        parser.positional(po::positional_options_description());
    po::store(parser.run(), values);
    po::notify(values);
    return values;
}

void print_json(const json& value) { std::cout << value.dump(2) << "\n"; }

namespace {

// `text` with its lines broken at spaces to at most `width` columns where they can be, as
// Program_options breaks the option descriptions; indented lines are laid out already and kept.
std::string wrapped(std::string_view text, std::size_t width = 80) {
    std::string out;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        std::string_view line = text.substr(0, end);
        text.remove_prefix(std::min(end + 1, text.size()));
        while (line.size() > width && line.front() != ' ') {
            std::size_t cut = line.rfind(' ', width);
            if (cut == std::string_view::npos || cut == 0) cut = line.find(' ');
            if (cut == std::string_view::npos) break;
            out.append(line.substr(0, cut)) += '\n';
            line.remove_prefix(cut + 1);
        }
        out.append(line) += '\n';
    }
    return out;
}

}  // namespace

std::string help_text(std::string_view synopsis, const po::options_description& options, std::string_view about) {
    std::ostringstream out;
    out << "usage: " << synopsis << "\n\n";
    if (!about.empty()) out << wrapped(about) << "\n";
    out << options << "\n";
    return out.str();
}

void print_help(std::string_view synopsis, const po::options_description& options, std::string_view about) {
    std::cout << help_text(synopsis, options, about);
}

}  // namespace dpbo::cli
