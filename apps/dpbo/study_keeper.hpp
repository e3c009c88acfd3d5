#pragma once
// A study's keeper: `dpbo study serve FILE` holds the study open in one process, its algorithm alive
// between asks (dpbo/host/study.hpp), and answers the `dpbo ask` and `dpbo study show` of clients on
// this machine through a Unix socket beside the file (FILE.keeper). A client finds the socket, sends
// its command and prints the keeper's answer; without a keeper (none started, it ended, another
// machine) the client replays the study itself, as before. The file stays the study: the keeper's run
// reads it again whenever it goes on, so clients with and without the keeper can share a study.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "captured_command.hpp"

namespace dpbo {
class Study;
}

namespace dpbo::cli {

// The keeper's socket for a study file.
std::filesystem::path keeper_socket(const std::filesystem::path& study);

// Serves `study` (open already) until no client has asked for `idle_seconds`, or SIGINT/SIGTERM, or the
// file is replaced; removes its socket then. Prints one line on stdout when it is ready, and one per
// command it answers. ValidationError when the socket's path is too long or another keeper serves it.
int serve_study(Study& study, double idle_seconds);

// The study the keeper serves in this process, for the commands it runs (open_study), or null.
Study* kept_study(const std::filesystem::path& file);

// `words` answered by the keeper of `study`, or nothing when no keeper answers (then the caller does
// the work itself).
std::optional<CapturedCommand> ask_keeper(const std::filesystem::path& study, const std::vector<std::string>& words);

}  // namespace dpbo::cli
