#include "data_file_lines.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "bounded_input.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::plugin_data {

namespace {

bounded_input::Input input_of(const std::string& path, const DataFileDescription& d) {
    return {fmt::format("{}: {} {}", d.owner, d.setting, path), d.expected, d.max_line_bytes};
}

}  // namespace

gzFile open_data_file(const std::string& path, const DataFileDescription& d) {
    bounded_input::InputFile file(path, input_of(path, d), bounded_input::Unopenable::RunFailure);
    const int fd = file.release();
    gzFile opened = gzdopen(fd, "rb");
    if (opened == nullptr) {
        ::close(fd);
        throw RunError(
            fmt::format("{}: cannot open {} {} (out of memory); expected {}", d.owner, d.setting, path, d.expected));
    }
    gzbuffer(opened, 1U << 17);
    return opened;
}

DataFileLines::DataFileLines(const std::string& path, DataFileDescription description)
    : path_(path), description_(std::move(description)), file_(open_data_file(path, description_)) {}

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
            throw ValidationError(
                bounded_input::too_long(input_of(path_, description_), fmt::format("line {} is", line_number_ + 1)));
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
