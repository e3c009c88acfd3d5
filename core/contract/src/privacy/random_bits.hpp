#pragma once
// Single random bits and short bit strings cut from the privacy keystream. The exact samplers read
// one bit at a time (a comparison of two lazy reals usually ends after two), so bits are buffered
// instead of spending 64 keystream bits per decision.
#include <cstdint>

namespace dpbo {
class PrivacyNoiseSource;
}

namespace dpbo::privacy::detail {

class RandomBits {
public:
    explicit RandomBits(PrivacyNoiseSource& source) : source_(source) {}

    bool bit() {
        if (left_ == 0) {
            buffer_ = next_word();
            left_ = 64;
        }
        const bool value = (buffer_ >> 63) != 0;
        buffer_ <<= 1;
        --left_;
        return value;
    }

    // The next `count` bits (1 ≤ count ≤ 64), the first drawn as the most significant.
    std::uint64_t bits(unsigned count);

    // Uniform on [0, bound), bound ≥ 1: draws ⌈log2 bound⌉ bits until they are below bound, so
    // every value has probability exactly 1/bound.
    std::uint64_t uniform_below(std::uint64_t bound);

private:
    std::uint64_t next_word();

    PrivacyNoiseSource& source_;
    std::uint64_t buffer_ = 0;  // unread bits at the top
    unsigned left_ = 0;
};

}  // namespace dpbo::privacy::detail
