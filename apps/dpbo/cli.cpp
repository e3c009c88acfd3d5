#include "cli.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <sstream>

#include <boost/dll/runtime_symbol_info.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

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

namespace {

std::filesystem::path& dpbo_location() {
    static std::filesystem::path location;
    return location;
}

}  // namespace

void set_dpbo_location(const std::filesystem::path& executable) { dpbo_location() = executable; }

namespace {

std::vector<SearchDirectory> search_path(const CommonOptions& common) {
    if (!dpbo_location().empty()) return plugin_search_path(common.plugin_paths, dpbo_location());
    std::error_code ec;
    const auto executable = boost::dll::program_location(ec);
    return plugin_search_path(common.plugin_paths, ec ? std::filesystem::path() : executable);
}

}  // namespace

void load_plugins(PluginRegistry& registry, const CommonOptions& common) { registry.load(search_path(common)); }

void load_plugins_on_demand(PluginRegistry& registry, const CommonOptions& common) {
    registry.load_on_demand(search_path(common));
}

po::variables_map parse_command(const std::vector<std::string>& arguments, const po::options_description& options,
                                const po::positional_options_description* positional) {
    // Words past the declared positionals go to a hidden option, so that the first of them can be
    // named (Program_options says only "too many positional options").
    constexpr const char* kStray = "dpbo-stray-argument";
    po::options_description with_stray;
    with_stray.add(options);
    with_stray.add_options()(kStray, po::value<std::vector<std::string>>());
    po::positional_options_description positions =
        positional != nullptr ? *positional : po::positional_options_description();
    const unsigned declared = positions.max_total_count();
    // A positional taking any number of words (check's files) leaves none stray.
    const bool bounded = declared != std::numeric_limits<unsigned>::max();
    if (bounded) positions.add(kStray, -1);
    po::variables_map values;
    po::store(po::command_line_parser(arguments).options(with_stray).positional(positions).run(), values);
    if (values.count(kStray)) {
        const std::string word = values[kStray].as<std::vector<std::string>>().front();
        std::vector<std::string> names;
        for (unsigned i = 0; i < declared; ++i) names.push_back(fmt::format("{}", positions.name_for_position(i)));
        throw po::error(
            declared == 0
                ? fmt::format("unexpected argument '{}'; this command takes options only (they begin with --; "
                              "'--help' lists them)",
                              word)
                : fmt::format("unexpected argument '{}'; this command takes at most {} argument{} ({}) besides "
                              "its options ('--help' lists them)",
                              word, declared, declared == 1 ? "" : "s", fmt::join(names, ", ")));
    }
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
