#include "program_supervisor.hpp"

#include <cerrno>
#include <csignal>
#include <initializer_list>

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace dpbo::plugin_process {

namespace {

constexpr int kTickMilliseconds = 10;
constexpr int kFinishTicks = 200;     // 2 s for the program to finish at the end of its input
constexpr int kTerminateTicks = 100;  // 1 s for the group to go after SIGTERM, and again after SIGKILL
constexpr int kStatusTicks = 100;     // 1 s for an exit to show once the program's output has ended

constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

void pause_a_tick() { ::poll(nullptr, 0, kTickMilliseconds); }

void set_disposition(int signal_number, void (*handler)(int)) {
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
}

[[noreturn]] void run_program(const SupervisedProgram& program) {
    ::setpgid(0, 0);
    for (const int s : kStopSignals) set_disposition(s, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::dup2(program.stdin_fd, STDIN_FILENO);
    ::dup2(program.stdout_fd, STDOUT_FILENO);
    ::dup2(program.stderr_fd, STDERR_FILENO);
    // Nothing else dpbo holds open reaches the program: a descriptor inherited without close-on-exec
    // (the pipes of whoever started dpbo, say) would keep them open as long as it runs.
    ::close_range(3, ~0U, 0);
    ::execl("/bin/sh", "sh", "-c", program.command, static_cast<char*>(nullptr));
    ::_exit(127);
}

// Whether the program has ended, leaving it unreaped: a zombie keeps its pid, the group's id, from
// being reused while the group is being ended.
bool has_ended(pid_t program, siginfo_t& info) {
    info = {};
    return ::waitid(P_PID, static_cast<id_t>(program), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == program;
}

void report_status(pid_t program, int status_fd) {
    ProgramStatus status;
    siginfo_t info;
    for (int tick = 0; tick < kStatusTicks; ++tick) {
        if (has_ended(program, info)) {
            status = {1, info.si_code, info.si_status};
            break;
        }
        pause_a_tick();
    }
    const ssize_t written = ::write(status_fd, &status, sizeof status);
    (void)written;  // dpbo, gone, does not need the answer
}

// Reaps whatever has ended (the program and the orphans of its group, adopted as subreaper) until
// the group is empty or `ticks` pass; whether it is empty.
bool group_gone_within(pid_t group, int ticks) {
    for (int tick = 0;; ++tick) {
        while (::waitpid(-1, nullptr, WNOHANG) > 0) {
        }
        if (::kill(-group, 0) != 0 && errno == ESRCH) return true;
        if (tick >= ticks) return false;
        pause_a_tick();
    }
}

void end_group(pid_t program, bool at_once) {
    if (!at_once) {
        siginfo_t info;
        for (int tick = 0; tick < kFinishTicks && !has_ended(program, info); ++tick) pause_a_tick();
        ::kill(-program, SIGTERM);
        if (group_gone_within(program, kTerminateTicks)) return;
    }
    ::kill(-program, SIGKILL);
    group_gone_within(program, kTerminateTicks);
}

// Closes every descriptor from 3 up but `a` and `b`.
void close_all_but(int a, int b) {
    if (a > b) {
        const int t = a;
        a = b;
        b = t;
    }
    unsigned first = 3;
    for (const int keep : {a, b}) {
        if (keep < static_cast<int>(first)) continue;
        if (keep > static_cast<int>(first)) ::close_range(first, static_cast<unsigned>(keep) - 1, 0);
        first = static_cast<unsigned>(keep) + 1;
    }
    ::close_range(first, ~0U, 0);
}

}  // namespace

void supervise(const SupervisedProgram& program) {
    for (const int s : kStopSignals) set_disposition(s, SIG_IGN);
    set_disposition(SIGPIPE, SIG_IGN);
    // Orphans of the program (what it forked, once it exits) become this process's children.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    const pid_t child = ::fork();
    if (child == 0) run_program(program);
    if (child < 0) {
        const ProgramStatus failed{1, CLD_EXITED, 127};
        const ssize_t written = ::write(program.status, &failed, sizeof failed);
        (void)written;
        ::_exit(1);
    }
    ::setpgid(child, child);
    // Its standard streams are dpbo's (a caller may wait for them to close): /dev/null instead.
    const int null_fd = ::open("/dev/null", O_RDWR);
    for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd)
        if (null_fd >= 0 && fd != program.control && fd != program.status) ::dup2(null_fd, fd);
    close_all_but(program.control, program.status);

    bool at_once = false;
    for (;;) {
        char request = 0;
        const ssize_t n = ::read(program.control, &request, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (request == kReportStatus) report_status(child, program.status);
        if (request == kEndAtOnce) at_once = true;
    }
    end_group(child, at_once);
    ::_exit(0);
}

}  // namespace dpbo::plugin_process
