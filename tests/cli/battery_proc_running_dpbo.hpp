#pragma once
// The built dpbo started without waiting for it, for tests that interrupt or kill it: SIGINT and
// SIGTERM at their default action (as from a terminal) whatever the test runner set, its output to
// /dev/null, only the build tree's plugins, and an optional extra environment.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <string>
#include <vector>

#include <doctest/doctest.h>

extern char** environ;

namespace dpbo::test {

class RunningDpbo {
public:
    explicit RunningDpbo(const std::vector<std::string>& arguments,
                         const std::map<std::string, std::string>& environment = {}) {
        std::map<std::string, std::string> extra = environment;
        extra.emplace("DPBO_PLUGIN_PATH", "");
        std::vector<std::string> env_strings;
        for (char** e = environ; *e != nullptr; ++e) {
            const std::string entry(*e);
            if (extra.count(entry.substr(0, entry.find('='))) == 0) env_strings.push_back(entry);
        }
        for (const auto& [key, value] : extra) env_strings.push_back(key + "=" + value);
        std::vector<char*> envp;
        for (auto& e : env_strings) envp.push_back(e.data());
        envp.push_back(nullptr);
        const std::string program = DPBO_EXECUTABLE;
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
        posix_spawnattr_t attributes;
        posix_spawnattr_init(&attributes);
        sigset_t defaults;
        sigemptyset(&defaults);
        sigaddset(&defaults, SIGINT);
        sigaddset(&defaults, SIGTERM);
        posix_spawnattr_setsigdefault(&attributes, &defaults);
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
        const int spawned = posix_spawn(&pid_, program.c_str(), &actions, &attributes, argv.data(), envp.data());
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
        REQUIRE(spawned == 0);
    }
    ~RunningDpbo() {
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
    }
    RunningDpbo(const RunningDpbo&) = delete;
    RunningDpbo& operator=(const RunningDpbo&) = delete;

    // Sends `signal` and returns how it ended: the exit code, or 128 + the signal.
    int stop_with(int signal) {
        ::kill(pid_, signal);
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }

private:
    pid_t pid_ = -1;
};

}  // namespace dpbo::test
