#include "line_process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::plugin_process {

namespace {

std::string last_lines(const std::string& path, std::size_t count) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    const std::size_t first = lines.size() > count ? lines.size() - count : 0;
    std::string out;
    for (std::size_t i = first; i < lines.size(); ++i) out += (out.empty() ? "" : " | ") + lines[i];
    return out;
}

}  // namespace

LineProcess::LineProcess(std::string command, double timeout_seconds, std::string owner, std::string role)
    : command_(std::move(command)),
      timeout_seconds_(timeout_seconds),
      owner_(std::move(owner)),
      role_(std::move(role)) {
    // A program that exits before reading a request must not kill dpbo with SIGPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    char pattern[] = "/tmp/dpbo-program-stderr-XXXXXX";
    const int stderr_fd = mkstemp(pattern);
    if (stderr_fd < 0) throw dpbo::RunError(fmt::format("{}: cannot create a file for the {}'s stderr", owner_, role_));
    // Unlinked at once and read back through this process's descriptor: the file goes with dpbo
    // however dpbo ends (a killed run left one behind in /tmp each time).
    std::remove(pattern);
    stderr_fd_ = stderr_fd;
    stderr_path_ = fmt::format("/proc/self/fd/{}", stderr_fd);
    int in_pipe[2];
    int out_pipe[2];
    if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0)
        throw dpbo::RunError(
            fmt::format("{}: cannot create pipes for `{}`: {}", owner_, command_, std::strerror(errno)));
    pid_ = fork();
    if (pid_ < 0)
        throw dpbo::RunError(fmt::format("{}: cannot start `{}`: {}", owner_, command_, std::strerror(errno)));
    if (pid_ == 0) {
        // Its own process group, so the whole pipeline the shell starts can be stopped at once.
        setpgid(0, 0);
        dup2(in_pipe[0], STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        dup2(stderr_fd, STDERR_FILENO);
        // Nothing else dpbo holds open reaches the program: a descriptor inherited without
        // close-on-exec (the pipes of whoever started dpbo, say) would keep them open as long as it runs.
        close_range(3, ~0U, 0);
        execl("/bin/sh", "sh", "-c", command_.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    // Also here, so the group exists before the destructor may have to stop it.
    setpgid(pid_, pid_);
    close(in_pipe[0]);
    close(out_pipe[1]);
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
}

LineProcess::~LineProcess() {
    if (to_child_ >= 0) close(to_child_);
    if (pid_ > 0) {
        // The program is asked to finish by the end of its input; one that does not is killed, with
        // everything it started (a `sleep` left behind would hold the pipes of whoever started dpbo).
        int status = 0;
        bool reaped = false;
        // One that already let a timeout pass is not waited for again.
        const int grace_steps = timed_out_ ? 0 : 200;
        for (int i = 0; i < grace_steps && !reaped; ++i) {
            reaped = waitpid(pid_, &status, WNOHANG) == pid_;
            if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        if (!reaped) {
            if (kill(-pid_, SIGKILL) != 0) kill(pid_, SIGKILL);
            waitpid(pid_, &status, 0);
        }
    }
    if (from_child_ >= 0) close(from_child_);
    if (stderr_fd_ >= 0) close(stderr_fd_);
}

std::string LineProcess::describe_failure(const std::string& what) const {
    const std::string tail = last_lines(stderr_path_, 5);
    return fmt::format("{}: the {} `{}` {}{}", owner_, role_, command_, what,
                       tail.empty() ? "" : fmt::format("; its stderr ends: {}", tail));
}

void LineProcess::send(const std::string& line) {
    // A program that has stopped reading (it exited, or closed its input) is not reported here: what it
    // wrote before, or how it exited, is found by the receive() that follows, which says more.
    if (input_closed_) return;
    const std::string data = line + "\n";
    std::size_t written = 0;
    while (written < data.size()) {
        const ssize_t n = write(to_child_, data.data() + written, data.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            input_closed_ = true;
            return;
        }
        written += static_cast<std::size_t>(n);
    }
}

std::string LineProcess::receive(const std::string& waiting_for) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds_);
    while (true) {
        if (const auto newline = buffer_.find('\n'); newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) {
            timed_out_ = true;
            throw dpbo::RunError(describe_failure(
                fmt::format("sent no {} within {} s (objective.timeout)", waiting_for, timeout_seconds_)));
        }
        pollfd ready{from_child_, POLLIN, 0};
        const int polled = poll(&ready, 1, static_cast<int>(left.count()));
        if (polled < 0 && errno == EINTR) continue;
        if (polled <= 0) continue;
        char chunk[4096];
        const ssize_t n = read(from_child_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // Its output ends when it exits; give it a moment to, so the message can say how.
            int status = 0;
            std::string how = "closed its output";
            bool exited = false;
            for (int i = 0; i < 100 && !exited; ++i) {
                exited = waitpid(pid_, &status, WNOHANG) == pid_;
                if (!exited) std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            if (exited) {
                pid_ = -1;
                how = WIFEXITED(status) ? fmt::format("exited with status {}", WEXITSTATUS(status))
                                        : fmt::format("was killed by signal {}", WTERMSIG(status));
            }
            throw dpbo::RunError(describe_failure(fmt::format("{} before its {}", how, waiting_for)));
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
        if (buffer_.size() > (1U << 24))
            throw dpbo::RunError(
                describe_failure(fmt::format("wrote more than 16 MiB without a newline while a {} "
                                             "was awaited",
                                             waiting_for)));
    }
}

}  // namespace dpbo::plugin_process
