#pragma once
// IDX files, the format of LeCun, Cortes & Burges' MNIST files, plain or gzip-compressed: a
// big-endian header — two zero bytes, a type code (0x08: unsigned bytes) and the rank k — then k
// 32-bit sizes, then the payload in row-major order. Only unsigned-byte arrays are read (MNIST's
// images and labels); a wrong magic number, a short payload or bytes after it are refused by name.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dpbo::plugin_data {

struct IdxBytes {
    std::vector<std::size_t> sizes;    // k sizes, the first the number of items
    std::vector<std::uint8_t> values;  // ∏ sizes bytes, row-major
};

// The largest payload accepted: far above MNIST's 47 MB of training images, so a corrupt header
// cannot ask for an absurd allocation.
inline constexpr std::size_t kMaxIdxPayloadBytes = std::size_t{1} << 30;

// Reads the IDX array of unsigned bytes of rank `rank` in `path` (named by the parameter `setting`
// of `owner` in messages). Throws ValidationError when the path is not a regular file, RunError
// when it cannot be opened or decompressed, has another magic number than 0x0000080<rank>, a size
// of 0, a payload above kMaxIdxPayloadBytes, ends before the payload its header announces, or has
// bytes after it.
IdxBytes read_idx_bytes(const std::string& path, const std::string& setting, std::size_t rank,
                        const std::string& owner);

}  // namespace dpbo::plugin_data
