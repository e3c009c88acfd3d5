#pragma once
// GMP helpers shared by the exact samplers (internal: GMP never reaches an installed header).
#include <cstdint>

#include <gmpxx.h>

#include "random_bits.hpp"

namespace dpbo::privacy::detail {

// The double nearest to value · 2^exponent (ties to even; ±inf beyond the double range).
double nearest_double(const mpz_class& value, long exponent);

// The exact integer an integer-valued finite double holds.
mpz_class integer_of(double value);

// Uniform on [0, bound), bound ≥ 1, by rejection of ⌈log2 bound⌉-bit strings.
mpz_class uniform_below(const mpz_class& bound, RandomBits& bits);

}  // namespace dpbo::privacy::detail
