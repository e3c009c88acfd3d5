#include "line_process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"
#include "program_supervisor.hpp"
#include "unnamed_temporary_file.hpp"

namespace dpbo::plugin_process {

namespace {

std::string last_lines(int fd, std::size_t count) {
    // Only the end of the file is read: a program may have written gigabytes to its stderr.
    const std::string tail = bounded_input::read_tail(fd, 64 * 1024);
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < tail.size()) {
        const std::size_t end = std::min(tail.find('\n', start), tail.size());
        std::string line = tail.substr(start, end - start);
        // Its bytes are quoted in dpbo's own message: control characters are not passed on, nor more
        // than a few hundred of them per line.
        for (char& c : line)
            if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == 0x7f) c = '?';
        if (line.size() > 300) {
            std::size_t from = line.size() - 300;
            while (from < line.size() && (static_cast<unsigned char>(line[from]) & 0xc0) == 0x80) ++from;
            line = "…" + line.substr(from);
        }
        lines.push_back(std::move(line));
        start = end + 1;
    }
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
    // Without a name from the start and read back through this process's descriptor: the file goes
    // with dpbo however dpbo ends (a killed run left one behind in /tmp each time).
    stderr_fd_ = open_unnamed_temporary_file("dpbo-program-stderr");
    if (stderr_fd_ < 0)
        throw dpbo::RunError(
            fmt::format("{}: cannot create a file for the {}'s stderr: {}", owner_, role_, std::strerror(errno)));
    int in_pipe[2] = {-1, -1};
    int out_pipe[2] = {-1, -1};
    int control_pipe[2] = {-1, -1};
    int status_pipe[2] = {-1, -1};
    // On failure here the destructor does not run: close what was opened.
    const auto close_pipes = [&] {
        for (int* p : {in_pipe, out_pipe, control_pipe, status_pipe})
            for (int i = 0; i < 2; ++i)
                if (p[i] >= 0) close(p[i]);
        close(stderr_fd_);
    };
    if (pipe2(in_pipe, O_CLOEXEC) != 0 || pipe2(out_pipe, O_CLOEXEC) != 0 || pipe2(control_pipe, O_CLOEXEC) != 0 ||
        pipe2(status_pipe, O_CLOEXEC) != 0) {
        const int reason = errno;
        close_pipes();
        throw dpbo::RunError(
            fmt::format("{}: cannot create pipes for `{}`: {}", owner_, command_, std::strerror(reason)));
    }
    const SupervisedProgram program{command_.c_str(), in_pipe[0],      out_pipe[1],
                                    stderr_fd_,       control_pipe[0], status_pipe[1]};
    supervisor_ = fork();
    if (supervisor_ == 0) supervise(program);
    if (supervisor_ < 0) {
        const int reason = errno;
        close_pipes();
        throw dpbo::RunError(fmt::format("{}: cannot start `{}`: {}", owner_, command_, std::strerror(reason)));
    }
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(control_pipe[0]);
    close(status_pipe[1]);
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
    to_supervisor_ = control_pipe[1];
    from_supervisor_ = status_pipe[0];
}

LineProcess::~LineProcess() {
    // The program is asked to finish by the end of its input; the supervisor ends its group when the
    // control pipe closes, at once for one that already let a timeout pass.
    if (to_child_ >= 0) close(to_child_);
    if (to_supervisor_ >= 0) {
        if (timed_out_) {
            const ssize_t written = write(to_supervisor_, &kEndAtOnce, 1);
            (void)written;
        }
        close(to_supervisor_);
    }
    if (from_child_ >= 0) close(from_child_);
    // The supervisor bounds its own time (the grace periods, about 4 s at most).
    if (supervisor_ > 0)
        while (waitpid(supervisor_, nullptr, 0) < 0 && errno == EINTR) {
        }
    if (from_supervisor_ >= 0) close(from_supervisor_);
    if (stderr_fd_ >= 0) close(stderr_fd_);
}

std::string LineProcess::ended() const {
    if (write(to_supervisor_, &kReportStatus, 1) != 1) return "";
    ProgramStatus status;
    std::size_t received = 0;
    auto* bytes = reinterpret_cast<char*>(&status);
    // The supervisor answers within about 1 s.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(3);
    while (received < sizeof status) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return "";
        pollfd ready{from_supervisor_, POLLIN, 0};
        const int polled = poll(&ready, 1, static_cast<int>(left.count()));
        if (polled < 0 && errno == EINTR) continue;
        if (polled <= 0) continue;
        const ssize_t n = read(from_supervisor_, bytes + received, sizeof status - received);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return "";
        received += static_cast<std::size_t>(n);
    }
    if (status.ended == 0) return "";
    return status.code == CLD_EXITED ? fmt::format("exited with status {}", status.value)
                                     : fmt::format("was killed by signal {}", status.value);
}

std::string LineProcess::describe_failure(const std::string& what) const {
    const std::string tail = last_lines(stderr_fd_, 5);
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

std::string LineProcess::receive(const std::string& waiting_for, std::size_t numbers_asked) {
    const std::size_t max_line_bytes = kBaseLineBytes + kBytesPerNumber * numbers_asked;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds_);
    // Only what arrived since the last look is searched for the newline: a long line costs linear time.
    std::size_t searched = 0;
    while (true) {
        if (const auto newline = buffer_.find('\n', searched); newline != std::string::npos) {
            std::string line = buffer_.substr(0, newline);
            buffer_.erase(0, newline + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        searched = buffer_.size();
        // One byte of slack for the CR of a CRLF terminator.
        if (buffer_.size() > max_line_bytes + 1)
            throw dpbo::RunError(describe_failure(fmt::format(
                "wrote a line longer than {} while its {} was awaited",
                bounded_input::limit_text(max_line_bytes,
                                          numbers_asked == 0
                                              ? std::string()
                                              : fmt::format("16 MiB plus {} bytes for each of the {} numbers asked for",
                                                            kBytesPerNumber, numbers_asked)),
                waiting_for)));
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
        char chunk[1 << 16];
        const ssize_t n = read(from_child_, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            // Its output ends when it exits; the supervisor gives it a moment to, so the message can say how.
            const std::string how = ended();
            throw dpbo::RunError(describe_failure(
                fmt::format("{} before its {}", how.empty() ? "closed its output" : how, waiting_for)));
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

}  // namespace dpbo::plugin_process
