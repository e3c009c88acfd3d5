#pragma once
// Running the command a command line names, through the table of commands (commands.hpp), and
// answering help at every level of it.
#include <string>
#include <vector>

namespace dpbo::cli {

// Runs the command `words` (the command line after "dpbo") names, descending into groups
// (`dpbo study create ...`). Answers on the way `dpbo --help`, `dpbo --version`, `dpbo help [WORDS...]`
// (WORDS... --help; `dpbo help MODULE`, a word that is no command nor close to one, is `dpbo info
// MODULE`), `dpbo GROUP --help` and the hidden `dpbo help --list` (every command path, one a
// line, for tests and completion scripts); a command answers its own --help. A group named without a
// subcommand, like `dpbo` alone, prints its usage on stderr: exit 2. `path` becomes the command path
// run ("dpbo study create"), for the caller's messages. Throws ValidationError for an unknown command
// or subcommand, naming the nearest one and all of them.
int dispatch(std::vector<std::string> words, std::string& path);

}  // namespace dpbo::cli
