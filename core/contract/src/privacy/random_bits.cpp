#include "random_bits.hpp"

#include <bit>

#include <fmt/format.h>

#include "dpbo/errors.hpp"
#include "dpbo/random.hpp"

namespace dpbo::privacy::detail {

std::uint64_t RandomBits::next_word() { return source_.next_u64(); }

std::uint64_t RandomBits::bits(unsigned count) {
    if (count == 0 || count > 64) {
        throw RunError(fmt::format("RandomBits::bits: count = {}; allowed: 1 to 64", count));
    }
    if (count <= left_) {
        const std::uint64_t value = buffer_ >> (64 - count);
        buffer_ = count == 64 ? 0 : buffer_ << count;
        left_ -= count;
        return value;
    }
    // The buffered bits first, then the top of a fresh word: the same bits, in the same order, as
    // `count` calls of bit() would give.
    const unsigned from_buffer = left_;
    const std::uint64_t high = from_buffer == 0 ? 0 : buffer_ >> (64 - from_buffer);
    const unsigned from_word = count - from_buffer;
    const std::uint64_t word = next_word();
    const std::uint64_t low = word >> (64 - from_word);
    buffer_ = from_word == 64 ? 0 : word << from_word;
    left_ = 64 - from_word;
    return from_word == 64 ? low : (high << from_word) | low;
}

std::uint64_t RandomBits::uniform_below(std::uint64_t bound) {
    if (bound == 0) throw RunError("uniform_below: bound = 0; allowed: an integer >= 1");
    if (bound == 1) return 0;
    const unsigned width = static_cast<unsigned>(std::bit_width(bound - 1));
    for (;;) {
        const std::uint64_t candidate = bits(width);
        if (candidate < bound) return candidate;
    }
}

}  // namespace dpbo::privacy::detail
