#include "libsvm_reader.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <zlib.h>

#include "dpbo/errors.hpp"

namespace logreg_validation {
namespace {

// An a9a line is about 150 bytes; anything far longer is not this format (and a file without line
// breaks would otherwise be read whole into one string).
constexpr std::size_t kMaxLineBytes = 1 << 16;

class GzipLines {
public:
    GzipLines(const std::string& path, const std::string& owner) : path_(path), owner_(owner) {
        std::error_code error;
        // A directory, device or FIFO may never end (/dev/zero): only a regular file is read.
        if (!std::filesystem::is_regular_file(path, error))
            throw dpbo::RunError(fmt::format("{}: {} is not a readable regular file; expected LIBSVM data (plain or "
                                             ".gz)",
                                             owner, path));
        errno = 0;
        file_ = gzopen(path.c_str(), "rb");
        if (file_ == nullptr)
            throw dpbo::RunError(fmt::format("{}: cannot open {} ({})", owner, path,
                                             errno != 0 ? std::strerror(errno) : "out of memory"));
    }
    ~GzipLines() { gzclose(file_); }
    GzipLines(const GzipLines&) = delete;
    GzipLines& operator=(const GzipLines&) = delete;

    // The next line without its terminator; false at the end of the file.
    bool next(std::string& line) {
        line.clear();
        char chunk[4096];
        bool read_any = false;
        bool terminated = false;
        while (!terminated && gzgets(file_, chunk, sizeof chunk) != nullptr) {
            read_any = true;
            const std::size_t length = std::strlen(chunk);
            line.append(chunk, length);
            terminated = length > 0 && chunk[length - 1] == '\n';
            if (line.size() > kMaxLineBytes)
                throw dpbo::RunError(fmt::format("{}: {} line {} is longer than {} bytes; expected LIBSVM lines "
                                                 "'label idx:value ...'",
                                                 owner_, path_, line_number_ + 1, kMaxLineBytes));
        }
        if (!terminated) check_stream();
        if (!read_any) return false;
        ++line_number_;
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        return true;
    }

    std::size_t line_number() const { return line_number_; }

private:
    // gzgets returns nullptr both at the end and on a read or decompression error.
    void check_stream() const {
        int status = Z_OK;
        const char* message = gzerror(file_, &status);
        if (status == Z_OK || status == Z_STREAM_END) return;
        throw dpbo::RunError(fmt::format("{}: cannot read {} after line {}: {}", owner_, path_, line_number_,
                                         status == Z_ERRNO ? std::strerror(errno) : message));
    }

    std::string path_;
    std::string owner_;
    gzFile file_ = nullptr;
    std::size_t line_number_ = 0;
};

}  // namespace

SparseRows read_libsvm(const std::string& path, std::size_t rows, std::size_t features, const std::string& owner,
                       const std::string& parameter) {
    GzipLines lines(path, owner);
    SparseRows out;
    std::vector<double> labels;
    std::string line;
    const auto fail = [&](const std::string& what) {
        return dpbo::RunError(fmt::format("{}: {} line {}: {}; expected LIBSVM lines 'label idx:value ...' with label "
                                          "+1 or -1, increasing indices 1..{} and finite values",
                                          owner, path, lines.line_number(), what, features));
    };
    while (labels.size() < rows && lines.next(line)) {
        std::string_view rest(line);
        const auto token = [&]() {
            const auto start = rest.find_first_not_of(" \t");
            if (start == std::string_view::npos) return std::string_view{};
            rest.remove_prefix(start);
            const auto end = rest.find_first_of(" \t");
            const std::string_view word = rest.substr(0, end);
            rest.remove_prefix(end == std::string_view::npos ? rest.size() : end);
            return word;
        };
        const std::string_view label = token();
        if (label == "+1" || label == "1") {
            labels.push_back(1.0);
        } else if (label == "-1") {
            labels.push_back(-1.0);
        } else {
            throw fail(label.empty() ? "no label" : fmt::format("label '{}' is not +1 or -1", label));
        }
        std::uint32_t previous = 0;
        for (std::string_view entry = token(); !entry.empty(); entry = token()) {
            const auto colon = entry.find(':');
            if (colon == std::string_view::npos) throw fail(fmt::format("entry '{}' is not idx:value", entry));
            std::uint32_t index = 0;
            const auto [index_end, index_error] = std::from_chars(entry.data(), entry.data() + colon, index);
            if (index_error != std::errc() || index_end != entry.data() + colon || index < 1 || index > features)
                throw fail(fmt::format("entry '{}' has an index outside 1..{}", entry, features));
            if (index <= previous)
                throw fail(fmt::format("entry '{}' has an index not above the previous one ({})", entry, previous));
            double value = 0.0;
            const char* value_end = entry.data() + entry.size();
            const auto [parsed_end, value_error] = std::from_chars(entry.data() + colon + 1, value_end, value);
            if (value_error != std::errc() || parsed_end != value_end || !std::isfinite(value))
                throw fail(fmt::format("entry '{}' has a value that is not a finite number", entry));
            previous = index;
            out.index.push_back(index - 1);
            out.value.push_back(value);
        }
        out.starts.push_back(out.index.size());
    }
    if (labels.size() < rows)
        throw dpbo::ValidationError(fmt::format("{}: {} = {} is not allowed; {} has only {} rows", owner, parameter,
                                                rows, path, labels.size()));
    out.labels = arma::vec(labels);
    return out;
}

}  // namespace logreg_validation
