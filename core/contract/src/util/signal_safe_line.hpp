#pragma once
// One line of text assembled in a fixed buffer and written to stderr by a single write(2), for the
// fatal-signal handlers (module_call_guard.cpp, fatal_signal_exit.cpp). A line written in pieces
// can be split by another thread's output — with --workers, the other workers keep running while
// one crashes — so a reader (or a test) would not find the line whole; one write(2) of at most
// PIPE_BUF bytes to a pipe is atomic. Async-signal-safe: no allocation, only memcpy, strlen and
// write(2). A text longer than the buffer is cut.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>

namespace dpbo::signal_safe {

class Line {
public:
    Line& append(const char* text, std::size_t length) {
        length = std::min(length, sizeof text_ - 1 - used_);  // room kept for the final newline
        std::memcpy(text_ + used_, text, length);
        used_ += length;
        return *this;
    }
    Line& append(const char* text) { return append(text, std::strlen(text)); }

    // Ends the line with a newline and writes it; a short write (a full pipe) writes the rest.
    void write_to_stderr() {
        text_[used_++] = '\n';
        const char* next = text_;
        std::size_t left = used_;
        while (left > 0) {
            const ssize_t n = ::write(STDERR_FILENO, next, left);
            if (n <= 0) return;
            next += n;
            left -= static_cast<std::size_t>(n);
        }
    }

private:
    char text_[4096];  // PIPE_BUF on Linux: the most one write(2) to a pipe keeps together
    std::size_t used_ = 0;
};

}  // namespace dpbo::signal_safe
