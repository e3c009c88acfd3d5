#include "command_dispatch.hpp"

#include <algorithm>
#include <iostream>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "cli.hpp"
#include "commands.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::cli {

namespace {

bool asks_help(std::string_view word) { return word == "--help" || word == "-h" || word == "help"; }

// The rows of a table as the usage text lists them: names in a column, then their summaries.
std::string listing(std::span<const Command> table) {
    std::size_t width = 0;
    for (const Command& command : table) width = std::max(width, command.name.size());
    std::string out;
    for (const Command& command : table) out += fmt::format("  {:<{}}  {}\n", command.name, width, command.summary);
    return out;
}

std::vector<std::string> names(std::span<const Command> table) {
    std::vector<std::string> out;
    for (const Command& command : table) out.emplace_back(command.name);
    return out;
}

std::string top_usage() {
    return fmt::format(
        "usage: dpbo <command> [options]\n\ncommands:\n{}\n"
        "'dpbo <command> --help' (or 'dpbo help <command>') describes a command's options;\n"
        "'dpbo --version' prints the version.\n"
        "exit codes: 0 success, 1 failure while running, 2 usage or validation error, 3 (audit) claim refuted.\n",
        listing(commands()));
}

// `path`: the group's command path, e.g. "dpbo study".
std::string group_usage(const std::string& path, const Command& group) {
    return fmt::format(
        "usage: {} <subcommand> [options]\n\n{}\n\nsubcommands:\n{}\n'{} <subcommand> --help' describes a "
        "subcommand's options.\n",
        path, group.summary, listing(group.subcommands()), path);
}

// Every command path under `table`, one a line: groups, then each of their subcommands.
void list_paths(const std::string& prefix, std::span<const Command> table) {
    for (const Command& command : table) {
        const std::string path =
            prefix.empty() ? std::string(command.name) : fmt::format("{} {}", prefix, command.name);
        std::cout << path << "\n";
        if (command.subcommands != nullptr) list_paths(path, command.subcommands());
    }
}

// `after_help`: the word followed "dpbo help", where it may also have meant a module.
[[noreturn]] void refuse_unknown(const std::string& word, const std::string& path, std::span<const Command> table,
                                 bool after_help = false) {
    const std::vector<std::string> known = names(table);
    const auto near = closest_match(word, known);
    const std::string suggestion = near ? fmt::format(" (did you mean '{}'?)", *near) : "";
    if (path == "dpbo")
        throw ValidationError(
            fmt::format("unknown command '{}'{}; commands: {}{}", word, suggestion, fmt::join(known, ", "),
                        after_help ? fmt::format("; a module is described by 'dpbo info {}'", word) : std::string()));
    throw ValidationError(fmt::format("{}: unknown subcommand '{}'{}; subcommands: {}", path.substr(5), word,
                                      suggestion, fmt::join(known, ", ")));
}

}  // namespace

int dispatch(std::vector<std::string> words, std::string& path) {
    path = "dpbo";
    if (!words.empty() && words.front() == "--version") {
        std::cout << "dpbo " << DPBO_VERSION << "\n";
        return kSuccess;
    }
    if (words.size() == 2 && words[0] == "help" && words[1] == "--list") {
        list_paths("", commands());
        return kSuccess;
    }
    std::span<const Command> table = commands();
    const Command* group = nullptr;  // none: dpbo itself
    bool helped = false;             // the command line began "dpbo help"
    for (std::size_t at = 0;; ++at) {
        const auto usage = [&] { return group == nullptr ? top_usage() : group_usage(path, *group); };
        if (at == words.size()) {
            std::cerr << usage();
            return kUsageError;
        }
        if (words[at] == "help" && at + 1 < words.size()) {
            // `dpbo help MODULE` is `dpbo info MODULE`: a word that is no command, nor a near miss of
            // one (a typo is told so below), names a module.
            const std::string& next = words[at + 1];
            if (group == nullptr && !asks_help(next) && find_command(table, next) == nullptr &&
                !closest_match(next, names(table))) {
                path = "dpbo info";
                return find_command(table, "info")
                    ->run(std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(at) + 1, words.end()));
            }
            // `help WORDS...` is `WORDS... --help`, at any level.
            helped = true;
            words.erase(words.begin() + static_cast<std::ptrdiff_t>(at));
            if (std::none_of(words.begin() + static_cast<std::ptrdiff_t>(at), words.end(),
                             [](const std::string& w) { return w == "--help" || w == "-h"; }))
                words.emplace_back("--help");
        }
        if (asks_help(words[at])) {
            std::cout << usage();
            return kSuccess;
        }
        const Command* command = find_command(table, words[at]);
        if (command == nullptr) refuse_unknown(words[at], path, table, helped);
        path += " " + words[at];
        if (command->run != nullptr)
            return command->run(
                std::vector<std::string>(words.begin() + static_cast<std::ptrdiff_t>(at) + 1, words.end()));
        group = command;
        table = command->subcommands();
    }
}

}  // namespace dpbo::cli
