#pragma once
// A curator program the modeler talks to: started once through /bin/sh -c, fed one request line on
// its stdin and read one answer line from its stdout at a time (the dpbo-curator protocol, README
// "PO-GP-UCB with two parties"). Every failure is a RunError naming the command: it exited or closed
// its output (with the last lines of its stderr), or it did not answer within the timeout.
#include <string>
#include <sys/types.h>

namespace curator {

class CuratorProcess {
public:
    CuratorProcess(std::string command, double timeout_seconds, std::string owner);
    ~CuratorProcess();
    CuratorProcess(const CuratorProcess&) = delete;
    CuratorProcess& operator=(const CuratorProcess&) = delete;

    // Writes one line to its stdin; a curator that no longer reads is reported by the next receive().
    void send(const std::string& line);
    // The next line the program writes, without its newline.
    std::string receive(const std::string& waiting_for);
    // "command `…`" with the last lines of its stderr, for messages.
    std::string describe_failure(const std::string& what) const;
    const std::string& command() const { return command_; }

private:
    std::string command_;
    double timeout_seconds_;
    std::string owner_;
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string stderr_path_;
    std::string buffer_;
    bool input_closed_ = false;
    bool timed_out_ = false;
};

}  // namespace curator
