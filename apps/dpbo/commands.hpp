#pragma once
// The `dpbo` command's table of commands (command_table.cpp): each row is a command's name, its line in
// `dpbo --help`, and either the function that runs it or the table of its subcommands. The usage text,
// the dispatch, the "did you mean" suggestion, `dpbo help` and the unknown-command error are all read
// from the table, so a new command is its own command_NAME.cpp and one row.
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dpbo::cli {

struct Command {
    std::string_view name;
    std::string_view summary;  // one line, for the usage text of the level above
    // A command runs its arguments (those after its name; it answers --help itself) ...
    int (*run)(const std::vector<std::string>& arguments) = nullptr;
    // ... or is a group whose first argument names one of these (`dpbo study create`).
    std::span<const Command> (*subcommands)() = nullptr;
};

// A table the dispatch can read: every row named, once, with a summary, and either run or subcommands.
// Each table is checked with it where it is defined (static_assert), so a bad row does not compile.
constexpr bool well_formed(std::span<const Command> table) {
    for (std::size_t i = 0; i < table.size(); ++i) {
        const Command& row = table[i];
        if (row.name.empty() || row.name.front() == '-' || row.summary.empty()) return false;
        if ((row.run == nullptr) == (row.subcommands == nullptr)) return false;
        for (std::size_t j = 0; j < i; ++j)
            if (table[j].name == row.name) return false;
    }
    return true;
}

// Checks a table where it is defined, so that a bad row does not compile. GCC does not take the
// comparison of a function pointer with null as a constant expression under -fsanitize=undefined,
// so the sanitizer build (which also defines __SANITIZE_ADDRESS__) leaves the check to the normal
// build and to tests/cli/cli_help_test.cpp.
#if defined(__SANITIZE_ADDRESS__)
#define DPBO_CHECK_COMMAND_TABLE(table) static_assert(true)
#else
#define DPBO_CHECK_COMMAND_TABLE(table) \
    static_assert(well_formed(table), "each command named once, with a summary, and either run or subcommands")
#endif

// Every top-level command, in the order `dpbo --help` lists them.
std::span<const Command> commands();

// The row called `name`, or nullptr.
const Command* find_command(std::span<const Command> table, std::string_view name);

}  // namespace dpbo::cli
