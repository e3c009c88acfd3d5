// The stationary kernels' loops over many entries, eight doubles at a time. Once the squared
// distances were cheap, one exp (and for Matérn one sqrt) per kernel-matrix entry was most of a
// prediction over a large candidate set and of the likelihood fit: glibc's exp is scalar, and
// libmvec's vector exp (which the fit used, through its two-lane SSE variant in a baseline build) has
// a variant per instruction set that need not agree in the last bit, so results would depend on the
// CPU. This file has its own, faster in the fit too: x = k ln 2 + r with |r| ≤ ln 2 / 2 (Cody and
// Waite's two-part ln 2, k·ln2_hi exact), e^r by its Taylor series to r¹³ (truncation below 5·10⁻¹⁸
// relative), times 2^k built in the exponent bits. Within 2 ulp of the correctly rounded value
// (kernel_lanes_test.cpp); below e^−709 it returns 0 rather than a subnormal.
// Every loop does the same operations in the same order in every lane and every instruction-set
// clone, compiled with -ffp-contract=off (core/bo/CMakeLists.txt), so its results are the same bits
// on every CPU (OpenBLAS's kernels, chosen per CPU, still may not be).
#include "kernel_lanes.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace dpbo::gp::detail {

namespace {

constexpr std::size_t kLanes = 8;
typedef double Lanes __attribute__((vector_size(kLanes * sizeof(double))));
typedef long long Bits __attribute__((vector_size(kLanes * sizeof(double))));

constexpr double kLog2e = 1.4426950408889634074;
constexpr double kLn2High = 6.93147180369123816490e-01;  // 0x3FE62E42FEE00000: 21 trailing zero bits
constexpr double kLn2Low = 1.90821492927058770002e-10;
constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 · 2^52: adding it rounds to an integer

[[gnu::always_inline]] inline Lanes exp_lanes(Lanes x) {
    // Below −709 the result is 0 (k ≤ −1023 gives a zero scale); above 709.8, infinity (k = 1024).
    x = x < -709.0 ? Lanes{} - 709.0 : x;
    x = x > 709.8 ? Lanes{} + 709.8 : x;
    const Lanes shifted = x * kLog2e + kRoundingShift;
    const Lanes k = shifted - kRoundingShift;
    const Lanes r = (x - k * kLn2High) - k * kLn2Low;
    Lanes p = Lanes{} + 1.0 / 6227020800.0;  // 1/13!
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    // k sits in the low bits of `shifted`; 2^k is (k + 1023) in the exponent field. (Casts between
    // vector types of one size reinterpret the bits.)
    Bits exponent = ((Bits)shifted - (Bits)(Lanes{} + kRoundingShift)) + 1023;
    exponent = exponent < 0 ? Bits{} : exponent;
    const Bits scale_bits = exponent << 52;
    return p * (Lanes)scale_bits;
}

[[gnu::always_inline]] inline Lanes sqrt_lanes(Lanes x) {
    Lanes root;
    for (std::size_t l = 0; l < kLanes; ++l) root[l] = __builtin_sqrt(x[l]);  // correctly rounded everywhere
    return root;
}

// σ_f² e^{−r²/2} with s = k; Matérn 5/2: σ_f² (1 + √5 r + 5r²/3) e^{−√5 r} with
// s = (5/3) σ_f² (1 + √5 r) e^{−√5 r}, which stays finite at r = 0, so no division by r is needed.
template <ProfileFamily F>
[[gnu::always_inline]] inline void profile_lanes(const Lanes& r2, double variance, Lanes& value, Lanes& slope) {
    if constexpr (F == ProfileFamily::SquaredExponential) {
        value = variance * exp_lanes(-0.5 * r2);
        slope = value;
    } else {
        const Lanes root5_r = 2.2360679774997896964 * sqrt_lanes(r2);
        const Lanes decay = variance * exp_lanes(-root5_r);
        value = (1.0 + root5_r + (5.0 / 3.0) * r2) * decay;
        slope = (5.0 / 3.0) * (1.0 + root5_r) * decay;
    }
}

// r² for kLanes rows of `a` (from row i) against one point of b: summed over the dimensions in order.
[[gnu::always_inline]] inline Lanes distances_lanes(const double* a, std::size_t rows, std::size_t i,
                                                    const double* target, std::size_t dims) {
    Lanes sum = {};
    for (std::size_t k = 0; k < dims; ++k) {
        Lanes coordinates;
        std::memcpy(&coordinates, a + k * rows + i, sizeof(Lanes));
        const Lanes difference = coordinates - target[k];
        sum += difference * difference;
    }
    return sum;
}

// The rows past the last full block, one at a time, in the same order of operations.
[[gnu::always_inline]] inline double distance_one(const double* a, std::size_t rows, std::size_t i,
                                                  const double* target, std::size_t dims) {
    double sum = 0.0;
    for (std::size_t k = 0; k < dims; ++k) {
        const double difference = a[i + k * rows] - target[k];
        sum += difference * difference;
    }
    return sum;
}

// Blocks of rows small enough for the L1 cache in every dimension (256 rows × 16 dimensions = 32 KB),
// each met by every column of b: `a` is read from memory once, not once per column. `finish` turns
// a block of kLanes squared distances into what is stored (nothing, or the profile).
template <typename Finish>
[[gnu::always_inline]] inline void over_distances(const double* a, std::size_t rows, const double* b,
                                                  std::size_t columns, std::size_t dims, double* out,
                                                  const Finish& finish) {
    const std::size_t full = rows - rows % kLanes;
    constexpr std::size_t kBlock = 256;
    for (std::size_t i0 = 0; i0 < full; i0 += kBlock) {
        const std::size_t i1 = std::min(full, i0 + kBlock);
        for (std::size_t j = 0; j < columns; ++j) {
            const double* target = b + j * dims;
            double* column_out = out + j * rows;
            for (std::size_t i = i0; i < i1; i += kLanes) {
                const Lanes value = finish(distances_lanes(a, rows, i, target, dims));
                std::memcpy(column_out + i, &value, sizeof(Lanes));
            }
        }
    }
    if (full == rows) return;
    for (std::size_t j = 0; j < columns; ++j) {
        const double* target = b + j * dims;
        Lanes tail{};
        for (std::size_t i = full; i < rows; ++i) tail[i - full] = distance_one(a, rows, i, target, dims);
        const Lanes value = finish(tail);
        std::memcpy(out + j * rows + full, &value, (rows - full) * sizeof(double));
    }
}

// The profile over `count` values in blocks of kLanes, the last block padded (r² = 0) so that every
// value goes through the same lanes' arithmetic wherever it sits.
template <ProfileFamily F>
[[gnu::always_inline]] inline void profile_over(double* values, double* slope, std::size_t count, double variance) {
    const std::size_t full = count - count % kLanes;
    Lanes value;
    Lanes slope_value;
    for (std::size_t i = 0; i < full; i += kLanes) {
        Lanes r2;
        std::memcpy(&r2, values + i, sizeof(Lanes));  // a fixed size: one vector load, not a call
        profile_lanes<F>(r2, variance, value, slope_value);
        std::memcpy(values + i, &value, sizeof(Lanes));
        if (slope != nullptr) std::memcpy(slope + i, &slope_value, sizeof(Lanes));
    }
    if (full == count) return;
    const std::size_t width = count - full;
    Lanes r2{};
    std::memcpy(&r2, values + full, width * sizeof(double));
    profile_lanes<F>(r2, variance, value, slope_value);
    std::memcpy(values + full, &value, width * sizeof(double));
    if (slope != nullptr) std::memcpy(slope + full, &slope_value, width * sizeof(double));
}

// What over_distances stores: the squared distances themselves, or the profile's values. Functors
// with inlined calls rather than lambdas, whose bodies would be compiled for the baseline set.
struct Distances {
    [[gnu::always_inline]] Lanes operator()(const Lanes& r2) const { return r2; }
};

template <ProfileFamily F>
struct Profile {
    double variance;
    [[gnu::always_inline]] Lanes operator()(const Lanes& r2) const {
        Lanes value;
        Lanes slope;
        profile_lanes<F>(r2, variance, value, slope);
        return value;
    }
};

}  // namespace

// Each function below is cloned per instruction set and everything it calls is inlined into the
// clone (always_inline; a call out of a clone would run these vectors in the baseline set).
// Compiled with -ffp-contract=off (core/bo/CMakeLists.txt): no clone fuses a multiply into an add,
// and every lane does the same operations in the same order, so every clone rounds alike.

__attribute__((target_clones("avx512f", "avx2", "default"))) void squared_distances_by_differences(
    const double* a, std::size_t rows, const double* b, std::size_t columns, std::size_t dims, double* out) {
    over_distances(a, rows, b, columns, dims, out, Distances{});
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void profile_values(ProfileFamily family, double* values,
                                                                                 double* slope, std::size_t count,
                                                                                 double variance) {
    if (family == ProfileFamily::SquaredExponential) {
        profile_over<ProfileFamily::SquaredExponential>(values, slope, count, variance);
    } else {
        profile_over<ProfileFamily::Matern52>(values, slope, count, variance);
    }
}

__attribute__((target_clones("avx512f", "avx2", "default"))) void kernel_values_by_differences(
    ProfileFamily family, double variance, const double* a, std::size_t rows, const double* b, std::size_t columns,
    std::size_t dims, double* out) {
    if (family == ProfileFamily::SquaredExponential) {
        over_distances(a, rows, b, columns, dims, out, Profile<ProfileFamily::SquaredExponential>{variance});
    } else {
        over_distances(a, rows, b, columns, dims, out, Profile<ProfileFamily::Matern52>{variance});
    }
}

double profile_exp(double x) {
    Lanes lanes{};
    lanes[0] = x;
    return exp_lanes(lanes)[0];
}

}  // namespace dpbo::gp::detail
