#pragma once
// The lines of a data file an objective reads, plain or gzip-compressed alike. What is not a
// regular file (a directory, a device such as /dev/zero, a FIFO) is refused before it is read, and
// a line longer than a format allows is refused rather than read whole into memory, with the
// messages of the shared bounded reader (bounded_input.hpp).
#include <cstddef>
#include <string>

#include <zlib.h>

namespace dpbo::plugin_data {

// How a file is named in messages and what it must look like.
struct DataFileDescription {
    std::string owner;     // "objective 'svr-tuning'"
    std::string setting;   // the parameter that named the file, e.g. "data_file"
    std::string expected;  // what the file should be, e.g. "LIBSVM lines 'label idx:value ...'"
    std::size_t max_line_bytes = 1 << 20;
};

// The file opened for zlib (plain or gzip-compressed), through the shared bounded reader
// (bounded_input.hpp): ValidationError naming the setting, the path and what it is when it is not a
// regular file (a device such as /dev/zero may never end, a FIFO would block); RunError when it
// cannot be opened. The caller closes it with gzclose.
gzFile open_data_file(const std::string& path, const DataFileDescription& description);

class DataFileLines {
public:
    // Throws ValidationError naming the setting, the path and what it is when the path is not a
    // regular file; RunError when it cannot be opened.
    DataFileLines(const std::string& path, DataFileDescription description);
    ~DataFileLines();
    DataFileLines(const DataFileLines&) = delete;
    DataFileLines& operator=(const DataFileLines&) = delete;

    // The next line without its terminator (LF or CRLF); false once the file is exhausted. Throws
    // ValidationError for a line beyond max_line_bytes, RunError when reading or decompressing fails.
    bool next(std::string& line);
    // The number of the line next() returned last (1-based).
    std::size_t line_number() const { return line_number_; }

private:
    void check_stream() const;

    std::string path_;
    DataFileDescription description_;
    gzFile file_ = nullptr;
    std::size_t line_number_ = 0;
};

}  // namespace dpbo::plugin_data
