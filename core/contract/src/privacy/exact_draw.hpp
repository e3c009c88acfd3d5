#pragma once
// A continuous noise draw held exactly: ±(integer + fraction), the fraction a lazily refined uniform
// whose undrawn digits are still fair bits. Rounding it to a grid reads as many digits as that needs.
#include <cstdint>

#include "lazy_uniform.hpp"
#include "random_bits.hpp"

namespace dpbo::privacy::detail {

struct ExactDraw {
    bool negative = false;
    std::uint64_t integer = 0;
    LazyUniform fraction;
};

// Z ~ N(0, 1) conditioned on ⌊|Z|⌋ ≥ min_integer (no condition at 0), exactly (Karney 2016).
void sample_exact_normal(ExactDraw& draw, std::uint64_t min_integer, RandomBits& bits);

// E ~ Exp(1) conditioned on ⌊E⌋ ≥ min_integer, exactly (von Neumann 1951), with a fair random sign:
// ±E is Laplace(0, 1) when min_integer = 0.
void sample_exact_laplace(ExactDraw& draw, std::uint64_t min_integer, RandomBits& bits);

}  // namespace dpbo::privacy::detail
