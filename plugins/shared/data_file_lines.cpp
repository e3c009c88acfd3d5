#include "data_file_lines.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo::plugin_data {

namespace {

const char* file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

void require_regular_file(const std::string& path, const DataFileDescription& d) {
    struct stat status {};
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode))
        throw ValidationError(fmt::format("{}: {} {} is not a regular file (it is {}); expected {}", d.owner, d.setting,
                                          path, file_kind(status.st_mode), d.expected));
}

DataFileLines::DataFileLines(const std::string& path, DataFileDescription description)
    : path_(path), description_(std::move(description)) {
    const DataFileDescription& d = description_;
    require_regular_file(path, d);
    errno = 0;
    file_ = gzopen(path.c_str(), "rb");
    if (file_ == nullptr) {
        const int reason = errno;
        throw RunError(fmt::format("{}: cannot open {} {} ({}); expected {}", d.owner, d.setting, path,
                                   reason != 0 ? std::strerror(reason) : "out of memory", d.expected));
    }
    gzbuffer(file_, 1U << 17);
}

DataFileLines::~DataFileLines() { gzclose(file_); }

bool DataFileLines::next(std::string& line) {
    line.clear();
    char chunk[1 << 16];
    bool read_any = false;
    bool terminated = false;
    while (!terminated && gzgets(file_, chunk, sizeof chunk) != nullptr) {
        read_any = true;
        const std::size_t length = std::strlen(chunk);
        line.append(chunk, length);
        terminated = length > 0 && chunk[length - 1] == '\n';
        if (line.size() > description_.max_line_bytes + (terminated ? 1 : 0))
            throw ValidationError(fmt::format("{}: {} line {} is longer than {} bytes; expected {}", description_.owner,
                                              path_, line_number_ + 1, description_.max_line_bytes,
                                              description_.expected));
    }
    // An unterminated line is the last one, or the point where the stream broke off.
    if (!terminated) check_stream();
    if (!read_any) return false;
    ++line_number_;
    if (!line.empty() && line.back() == '\n') line.pop_back();
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
}

// gzgets returns nullptr both at the end and on a read or decompression error.
void DataFileLines::check_stream() const {
    int status = Z_OK;
    const char* message = gzerror(file_, &status);
    if (status == Z_OK || status == Z_STREAM_END) return;
    throw RunError(fmt::format("{}: cannot read {} after line {}: {}", description_.owner, path_, line_number_,
                               status == Z_ERRNO ? std::strerror(errno) : message));
}

}  // namespace dpbo::plugin_data
