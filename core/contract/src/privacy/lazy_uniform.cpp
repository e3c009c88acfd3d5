#include "lazy_uniform.hpp"

#include <algorithm>

namespace dpbo::privacy::detail {

void LazyUniform::extend_to(std::size_t count, RandomBits& bits) {
    while (known_ < count) {
        if (known_ < 64) {
            const unsigned take = static_cast<unsigned>(std::min<std::size_t>(count, 64) - known_);
            head_ |= bits.bits(take) << (64 - known_ - take);
            known_ += take;
            continue;
        }
        const std::size_t j = known_ - 64;
        if (j % 64 == 0) tail_.push_back(0);
        const unsigned offset = static_cast<unsigned>(j % 64);
        const unsigned take = static_cast<unsigned>(std::min<std::size_t>(count - known_, 64 - offset));
        tail_.back() |= bits.bits(take) << (64 - offset - take);
        known_ += take;
    }
}

bool less(LazyUniform& a, LazyUniform& b, RandomBits& bits) {
    for (std::size_t i = 0;; ++i) {
        const bool x = a.digit(i, bits);
        const bool y = b.digit(i, bits);
        if (x != y) return y;
    }
}

}  // namespace dpbo::privacy::detail
