#pragma once
// The supervisor of a program dpbo talks to (line_process.hpp): a process forked from dpbo that forks
// the program (/bin/sh -c COMMAND) in a process group of its own, answers dpbo's questions about how
// it ended, and ends the whole group once dpbo closes the control pipe — or dies, which closes it
// too, whether it exits, crashes, is interrupted or is killed. It ignores the signals that stop dpbo
// from the terminal (SIGINT, SIGTERM, SIGHUP, SIGQUIT), so that it outlives dpbo long enough.
#include <cstdint>

namespace dpbo::plugin_process {

// What dpbo writes on the control pipe, a byte each.
constexpr char kReportStatus = 's';  // answer with a ProgramStatus (waiting up to 1 s for the program to end)
constexpr char kEndAtOnce = 'k';     // at the end, SIGKILL the group without the grace periods

// The answer to kReportStatus on the status pipe.
struct ProgramStatus {
    std::int32_t ended = 0;  // 1 when the program (the shell) has ended
    std::int32_t code = 0;   // CLD_EXITED, CLD_KILLED or CLD_DUMPED
    std::int32_t value = 0;  // its exit status, or the signal
};

struct SupervisedProgram {
    const char* command = nullptr;
    int stdin_fd = -1;  // become the program's 0, 1 and 2
    int stdout_fd = -1;
    int stderr_fd = -1;
    int control = -1;  // read end: requests, then the end of file that ends the group
    int status = -1;   // write end: ProgramStatus answers
};

// Runs in the child of fork() and never returns. Only async-signal-safe calls: dpbo may have had
// other threads when it forked.
[[noreturn]] void supervise(const SupervisedProgram& program);

}  // namespace dpbo::plugin_process
