#pragma once
// A program dpbo talks to in lines — a PO-GP-UCB curator (the dpbo-curator protocol) or an objective
// in any language (the dpbo-objective protocol): started through /bin/sh -c in its own process
// group, fed one request line on its stdin and read one answer line from its stdout at a time. Every
// failure is a RunError naming the program: it exited or closed its output (with its exit status and
// the last lines of its stderr), or it did not answer within the timeout.
//
// The program's whole process group ends with it, however dpbo ends (program_supervisor.hpp): a
// small supervisor process, forked from dpbo as the program's parent, waits for dpbo to close (or,
// dying, drop) a pipe; then it gives the program 2 s to finish at the end of its input, sends the
// group SIGTERM, gives it 1 s more, and sends SIGKILL. The supervisor is the subreaper of what the
// program starts, so processes the program forked are ended and reaped too (unless they left its
// process group).
#include <cstddef>
#include <string>
#include <sys/types.h>

namespace dpbo::plugin_process {

class LineProcess {
public:
    // `role` names the program in messages ("curator", "objective program").
    LineProcess(std::string command, double timeout_seconds, std::string owner, std::string role);
    ~LineProcess();
    LineProcess(const LineProcess&) = delete;
    LineProcess& operator=(const LineProcess&) = delete;

    // Writes one line to its stdin; a program that no longer reads is reported by the next receive().
    void send(const std::string& line);
    // The longest line receive() takes unless told otherwise: a handshake, or an answer to a small batch.
    static constexpr std::size_t kBaseLineBytes = std::size_t{16} << 20;
    // A line may hold this many bytes more per number asked for (a JSON number is at most 24 characters).
    static constexpr std::size_t kBytesPerNumber = 32;

    // The next line the program writes, without its newline; a RunError naming the limit when the
    // program writes more than `max_line_bytes` without one (kBaseLineBytes plus kBytesPerNumber for
    // each of `numbers_asked`), so that its answer is never held whole past that.
    std::string receive(const std::string& waiting_for, std::size_t numbers_asked = 0);
    // "command `…`" with the last lines of its stderr, for messages.
    std::string describe_failure(const std::string& what) const;
    const std::string& command() const { return command_; }

private:
    std::string command_;
    double timeout_seconds_;
    std::string owner_;
    std::string role_;
    // How the program ended, once its output has: "exited with status 3", or empty when unknown.
    std::string ended() const;

    pid_t supervisor_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    int to_supervisor_ = -1;    // closed: end the program's group
    int from_supervisor_ = -1;  // the program's exit status, when asked
    int stderr_fd_ = -1;        // the program's stderr file, without a name; its last lines are read back
    std::string buffer_;
    bool input_closed_ = false;
    bool timed_out_ = false;
};

}  // namespace dpbo::plugin_process
