#include "pairwise_distances.hpp"

#include <algorithm>
#include <cstring>

namespace dpbo::gp::detail {

namespace {

// Rows taken together, as one vector of eight doubles (GCC's vector extension): one AVX-512 register,
// two AVX2 ones, four SSE2 ones in the baseline clone. The sums stay in registers while the
// dimensions are walked, so the output is written once.
constexpr std::size_t kRows = 8;
typedef double Lanes __attribute__((vector_size(kRows * sizeof(double))));

}  // namespace

// Compiled with -ffp-contract=off (core/bo/CMakeLists.txt): no clone fuses a multiply into an add,
// and every lane does the same subtraction, product and sum in the same order, so every clone
// rounds alike.
__attribute__((target_clones("avx512f", "avx2", "default"))) void squared_distances_by_differences(
    const double* a, std::size_t rows, const double* b, std::size_t columns, std::size_t dims, double* out) {
    const std::size_t full = rows - rows % kRows;
    // Blocks of rows small enough for the L1 cache in every dimension (256 rows × 16 dimensions =
    // 32 KB), each met by every column of b: `a` is read from memory once, not once per column.
    const std::size_t block = 256;
    for (std::size_t i0 = 0; i0 < full; i0 += block) {
        const std::size_t i1 = std::min(full, i0 + block);
        for (std::size_t j = 0; j < columns; ++j) {
            const double* target = b + j * dims;
            double* column_out = out + j * rows;
            for (std::size_t i = i0; i < i1; i += kRows) {
                Lanes sum = {};
                for (std::size_t k = 0; k < dims; ++k) {
                    Lanes coordinates;
                    std::memcpy(&coordinates, a + k * rows + i, sizeof(Lanes));
                    const Lanes difference = coordinates - target[k];
                    sum += difference * difference;
                }
                std::memcpy(column_out + i, &sum, sizeof(Lanes));
            }
        }
    }
    for (std::size_t j = 0; j < columns; ++j) {
        const double* target = b + j * dims;
        for (std::size_t i = full; i < rows; ++i) {
            double sum = 0.0;
            for (std::size_t k = 0; k < dims; ++k) {
                const double difference = a[i + k * rows] - target[k];
                sum += difference * difference;
            }
            out[i + j * rows] = sum;
        }
    }
}

}  // namespace dpbo::gp::detail
