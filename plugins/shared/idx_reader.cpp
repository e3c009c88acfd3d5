#include "idx_reader.hpp"

#include <zlib.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <memory>

#include <fmt/format.h>

#include "data_file_lines.hpp"
#include "dpbo/errors.hpp"

namespace dpbo::plugin_data {

namespace {

constexpr std::uint8_t kUnsignedByteType = 0x08;

struct GzCloser {
    void operator()(gzFile file) const { gzclose(file); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

class IdxInput {
public:
    IdxInput(const std::string& path, const std::string& setting, std::size_t rank, const std::string& owner)
        : path_(path),
          owner_(owner),
          expected_(fmt::format("an IDX file of unsigned bytes with {} dimension(s) (magic number 0x{:08x}), e.g. "
                                "MNIST's t10k-{}-idx{}-ubyte.gz",
                                rank, 0x800U + rank, rank == 1 ? "labels" : "images", rank)) {
        file_.reset(open_data_file(path, {owner, setting, expected_}));
    }

    // Up to `count` bytes; fewer only at the end of the stream.
    std::size_t read(std::uint8_t* out, std::size_t count) {
        std::size_t done = 0;
        while (done < count) {
            const auto chunk = static_cast<unsigned>(std::min<std::size_t>(count - done, 1U << 24));
            const int got = gzread(file_.get(), out + done, chunk);
            if (got < 0) {
                int status = Z_OK;
                const char* message = gzerror(file_.get(), &status);
                throw RunError(fmt::format("{}: cannot read {} after {} bytes: {}", owner_, path_, offset_ + done,
                                           status == Z_ERRNO ? std::strerror(errno) : message));
            }
            if (got == 0) break;
            done += static_cast<std::size_t>(got);
        }
        offset_ += done;
        return done;
    }

    [[noreturn]] void fail(const std::string& what) const {
        throw RunError(fmt::format("{}: {} {}; expected {}", owner_, path_, what, expected_));
    }

private:
    std::string path_;
    std::string owner_;
    std::string expected_;
    GzFile file_;
    std::size_t offset_ = 0;
};

std::uint32_t big_endian(const std::uint8_t* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) | (std::uint32_t{bytes[2]} << 8) |
           std::uint32_t{bytes[3]};
}

}  // namespace

IdxBytes read_idx_bytes(const std::string& path, const std::string& setting, std::size_t rank,
                        const std::string& owner) {
    IdxInput input(path, setting, rank, owner);
    std::array<std::uint8_t, 4> word{};
    if (input.read(word.data(), 4) != 4) input.fail("is shorter than an IDX header (4 bytes)");
    const std::uint32_t magic = big_endian(word.data());
    if (word[0] != 0 || word[1] != 0 || word[2] != kUnsignedByteType || word[3] != rank)
        input.fail(fmt::format("has the magic number 0x{:08x} ({})", magic, magic));
    IdxBytes result;
    std::size_t payload = 1;
    for (std::size_t k = 0; k < rank; ++k) {
        if (input.read(word.data(), 4) != 4)
            input.fail(fmt::format("ends inside its header, before size {} of {}", k + 1, rank));
        const std::uint32_t size = big_endian(word.data());
        if (size == 0) input.fail(fmt::format("declares size 0 in dimension {}", k + 1));
        if (size > kMaxIdxPayloadBytes / payload)
            input.fail(fmt::format("declares a payload above the {} bytes accepted", kMaxIdxPayloadBytes));
        payload *= size;
        result.sizes.push_back(size);
    }
    result.values.resize(payload);
    const std::size_t got = input.read(result.values.data(), payload);
    if (got != payload)
        input.fail(fmt::format("ends after {} of the {} payload bytes its header announces (truncated)", got, payload));
    std::uint8_t extra = 0;
    if (input.read(&extra, 1) != 0)
        input.fail(fmt::format("has bytes after the {} payload bytes its header announces", payload));
    return result;
}

}  // namespace dpbo::plugin_data
