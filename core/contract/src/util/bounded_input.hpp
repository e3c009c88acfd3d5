#pragma once
// Every file and every line dpbo takes in from outside — a config, a spec, per-record values, data
// and candidate files, results folders, a program's answers, a request on stdin — is read through
// here, so that none can make dpbo wait forever or read until memory runs out:
// - a path must name a regular file, checked on the opened descriptor (opened without blocking, so a
//   FIFO with no writer cannot hang the open); a FIFO, device, socket or directory is refused by name;
// - nothing longer than the input's stated limit is held in memory: a file, a stream or a line past
//   it is refused after reading at most one byte more, with a message that names the input, the limit,
//   and how to raise it when there is a way.
// Header-only so that the host, the command and the in-tree plugins (through the dpbo_bounded_input
// CMake target) share one copy without it entering the installed plugin contract.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::bounded_input {

// The limit of a file a person writes — a config, an objective's spec: a few lines of text.
inline constexpr std::size_t kShortFileBytes = std::size_t{1} << 20;

// The limit of a JSON file dpbo writes into a results folder (result.json, job.json), read back by
// later runs, summary and report: far above any dpbo writes (their traces are in trace.csv).
inline constexpr std::size_t kResultFileBytes = std::size_t{256} << 20;

// What is read, as messages name it, and what bounds it.
struct Input {
    std::string name;        // "--config 'job.ini'", "objective 'command': spec 'x.json'"
    std::string expected;    // what it should be: "an INI file"
    std::size_t max_bytes;   // the longest file or stream (read_*), or line (LineReader), accepted
    std::string raise = {};  // how to raise the limit ("set objective.max_line_bytes"); empty: it is fixed
};

// "16 MiB (16777216 bytes; NOTE)" or "65536 bytes (NOTE)": the limit in bytes, which a user can
// compare with `ls -l`, and in MiB when it is a whole number of them; the note says how to raise it,
// or that it is fixed when `raise` is empty.
inline std::string limit_text(std::size_t bytes, const std::string& raise = {}) {
    constexpr std::size_t kMiB = std::size_t{1} << 20;
    const std::string note = raise.empty() ? "a fixed limit" : raise;
    if (bytes >= kMiB && bytes % kMiB == 0) return fmt::format("{} MiB ({} bytes; {})", bytes / kMiB, bytes, note);
    return fmt::format("{} bytes ({})", bytes, note);
}

// "NAME WHAT longer than LIMIT; expected EXPECTED", where `what` is "is" for the whole input or e.g.
// "line 3 is".
inline std::string too_long(const Input& input, std::string_view what = "is") {
    return fmt::format("{} {} longer than {}; expected {}", input.name, what, limit_text(input.max_bytes, input.raise),
                       input.expected);
}

inline const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

// How a file that exists as a regular file but cannot be opened is reported: as bad input (exit 2),
// or as a failure of the machine (exit 1; e.g. a data file the run expects to find there).
enum class Unopenable { BadInput, RunFailure };

// A regular file opened for reading; the descriptor is closed with the object unless released.
class InputFile {
public:
    // Throws ValidationError naming the input when `path` is not a regular file (what it is instead);
    // ValidationError or RunError, as `unopenable` says, when it cannot be opened.
    InputFile(const std::string& path, const Input& input, Unopenable unopenable = Unopenable::BadInput) {
        // Non-blocking: opening a FIFO for reading otherwise waits for a writer, before any check.
        fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd_ < 0) {
            const int reason = errno;
            const std::string message =
                fmt::format("{}: cannot open it ({}); expected {}", input.name, std::strerror(reason), input.expected);
            if (unopenable == Unopenable::RunFailure) throw RunError(message);
            throw ValidationError(message);
        }
        struct stat status {};
        if (::fstat(fd_, &status) != 0 || !S_ISREG(status.st_mode)) {
            const char* kind = file_kind(status.st_mode);
            ::close(fd_);
            throw ValidationError(
                fmt::format("{} is not a regular file (it is {}); expected {}", input.name, kind, input.expected));
        }
        size_ = static_cast<std::size_t>(status.st_size);
        ::fcntl(fd_, F_SETFL, ::fcntl(fd_, F_GETFL) & ~O_NONBLOCK);
    }
    ~InputFile() {
        if (fd_ >= 0) ::close(fd_);
    }
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    int fd() const { return fd_; }
    // Its size when opened.
    std::size_t size() const { return size_; }
    // The descriptor, now the caller's to close (e.g. handed to gzdopen).
    int release() { return std::exchange(fd_, -1); }

private:
    int fd_ = -1;
    std::size_t size_ = 0;
};

// Throws as InputFile does unless `path` is a regular file that can be opened: for paths another
// library opens (SQLite, zlib), checked before it gets them.
inline void require_regular_file(const std::string& path, const Input& input,
                                 Unopenable unopenable = Unopenable::BadInput) {
    InputFile checked(path, input, unopenable);
}

// Reads what `fd` holds to its end: at most input.max_bytes, else ValidationError (too_long) after
// reading one byte more. RunError when reading fails.
inline std::string read_all(int fd, const Input& input) {
    std::string text;
    char chunk[1 << 16];
    while (true) {
        const ssize_t n = ::read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw RunError(fmt::format("{}: cannot read it ({})", input.name, std::strerror(errno)));
        if (n == 0) return text;
        if (text.size() + static_cast<std::size_t>(n) > input.max_bytes) throw ValidationError(too_long(input));
        text.append(chunk, static_cast<std::size_t>(n));
    }
}

// A whole regular file, refused as too long from its size before anything is read.
inline std::string read_file(const std::string& path, const Input& input,
                             Unopenable unopenable = Unopenable::BadInput) {
    InputFile file(path, input, unopenable);
    if (file.size() > input.max_bytes) throw ValidationError(too_long(input));
    return read_all(file.fd(), input);
}

// The last `bytes` bytes of what the descriptor `fd` of a regular file holds (all of it when
// shorter), for quoting the end of a log; empty when it cannot be read, since the caller is
// reporting another failure already. The descriptor's offset is left alone (pread).
inline std::string read_tail(int fd, std::size_t bytes) {
    struct stat status {};
    if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) return {};
    const auto size = static_cast<std::size_t>(status.st_size);
    const std::size_t from = size > bytes ? size - bytes : 0;
    std::string text(size - from, '\0');
    std::size_t got = 0;
    while (got < text.size()) {
        const ssize_t n = ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(from + got));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        got += static_cast<std::size_t>(n);
    }
    text.resize(got);
    return text;
}

// The same for a file by its path.
inline std::string read_tail(const std::string& path, std::size_t bytes) {
    try {
        const InputFile file(path, {path, "a log", bytes});
        return read_tail(file.fd(), bytes);
    } catch (const std::exception&) {
        return {};
    }
}

// The lines of a descriptor (a regular file, or a pipe such as stdin), each at most input.max_bytes
// without its terminator (LF or CRLF); a longer line is never held whole.
class LineReader {
public:
    LineReader(int fd, Input input) : fd_(fd), input_(std::move(input)) {}

    enum class Status { Line, End, TooLong };

    // The next line without its terminator. TooLong: the line went past the limit; it was read to
    // its end and dropped (line holds nothing), and reading goes on with the next line.
    Status read(std::string& line) {
        line.clear();
        bool any = false;
        bool dropped = false;
        while (true) {
            if (start_ == buffer_.size() && !fill()) break;
            any = true;
            const char* begin = buffer_.data() + start_;
            const std::size_t available = buffer_.size() - start_;
            const auto* newline = static_cast<const char*>(std::memchr(begin, '\n', available));
            const std::size_t take = newline != nullptr ? static_cast<std::size_t>(newline - begin) : available;
            // One byte of slack for the CR of a CRLF terminator.
            if (!dropped && line.size() + take > input_.max_bytes + 1) {
                dropped = true;
                line.clear();
            }
            if (!dropped) line.append(begin, take);
            start_ += take + (newline != nullptr ? 1 : 0);
            if (newline != nullptr) break;
        }
        if (!any) return Status::End;
        ++line_number_;
        if (!dropped && !line.empty() && line.back() == '\r') line.pop_back();
        if (dropped || line.size() > input_.max_bytes) {
            line.clear();
            return Status::TooLong;
        }
        return Status::Line;
    }

    // As read(), but a line past the limit throws ValidationError naming the input, the line and the limit.
    bool next(std::string& line) {
        const Status status = read(line);
        if (status == Status::TooLong) throw ValidationError(too_long(input_, fmt::format("line {} is", line_number_)));
        return status == Status::Line;
    }

    // The number of the line read last (1-based).
    std::size_t line_number() const { return line_number_; }

private:
    bool fill() {
        buffer_.resize(1 << 16);
        start_ = 0;
        while (true) {
            const ssize_t n = ::read(fd_, buffer_.data(), buffer_.size());
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                buffer_.clear();
                throw RunError(
                    fmt::format("{}: cannot read line {} ({})", input_.name, line_number_ + 1, std::strerror(errno)));
            }
            buffer_.resize(static_cast<std::size_t>(n));
            return n > 0;
        }
    }

    int fd_;
    Input input_;
    std::string buffer_;
    std::size_t start_ = 0;
    std::size_t line_number_ = 0;
};

}  // namespace dpbo::bounded_input
