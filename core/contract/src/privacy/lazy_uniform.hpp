#pragma once
// A uniform real in (0, 1) that exists only as far as it has been looked at: its binary digits are
// drawn when a comparison first needs them. Whatever has been decided depends only on the digits
// drawn so far, so the digits not yet drawn stay independent fair bits — which is what lets the
// exact samplers return a real whose value is known to any precision asked for later.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "random_bits.hpp"

namespace dpbo::privacy::detail {

class LazyUniform {
public:
    // Forgets every digit: a fresh, independent uniform (storage is kept for reuse).
    void reset() {
        head_ = 0;
        known_ = 0;
        tail_.clear();
    }

    std::size_t known() const { return known_; }

    // Digit i (0 = the 1/2 place), drawing digits up to it first.
    bool digit(std::size_t i, RandomBits& bits) {
        if (i >= known_) extend_to(i + 1, bits);
        return known_digit(i);
    }

    bool known_digit(std::size_t i) const {
        if (i < 64) return ((head_ >> (63 - i)) & 1U) != 0;
        const std::size_t j = i - 64;
        return ((tail_[j / 64] >> (63 - j % 64)) & 1U) != 0;
    }

    // Draws digits until `count` are known.
    void extend_to(std::size_t count, RandomBits& bits);

    // The first min(known(), 64) digits as an integer, the first digit most significant.
    std::uint64_t head() const { return known_ >= 64 ? head_ : head_ >> (64 - known_); }
    // Digits 64 + 64w .. 64 + 64w + 63 (only the known ones; unknown ones read as 0).
    std::uint64_t tail_word(std::size_t w) const { return tail_[w]; }

private:
    std::uint64_t head_ = 0;  // digits 0..63, digit 0 at the top
    std::size_t known_ = 0;
    std::vector<std::uint64_t> tail_;  // digits 64.. (rarely needed)
};

// a < b, reading digits of both only until they differ (ties have probability zero).
bool less(LazyUniform& a, LazyUniform& b, RandomBits& bits);

}  // namespace dpbo::privacy::detail
