// A uniform real known to its first digits (selection_sampling.hpp): the digits a refinement has
// drawn so far, extended from the keystream when a comparison needs more.
#include <algorithm>
#include <climits>

#include "selection_sampling.hpp"

namespace dpbo::privacy::detail {

static_assert(sizeof(unsigned long) * CHAR_BIT == 64, "GMP's unsigned long conversions carry 64 bits");

PartialUniform PartialUniform::of(uint128 digits, std::size_t count) {
    PartialUniform u;
    u.digits = static_cast<unsigned long>(digits >> 64);
    u.digits <<= 64;
    u.digits += static_cast<unsigned long>(digits & ~std::uint64_t{0});
    u.known = count;
    return u;
}

void PartialUniform::extend_to(std::size_t count, RandomBits& source) {
    while (known < count) {
        const auto take = static_cast<unsigned>(std::min<std::size_t>(64, count - known));
        digits <<= take;
        digits += static_cast<unsigned long>(source.bits(take));  // unsigned long: 64 bits here
        known += take;
    }
}

}  // namespace dpbo::privacy::detail
