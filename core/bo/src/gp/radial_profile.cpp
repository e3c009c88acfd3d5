// The radial profiles for the likelihood fit. One exp per kernel-matrix entry is the largest cost of
// a likelihood evaluation outside the level-3 BLAS (a fifth of it at n = 200, d = 10, scalar). This
// file is compiled with -fno-math-errno -fopenmp-simd (core/CMakeLists.txt) and declares glibc's
// vector variant of exp, so GCC evaluates these loops two or more doubles at a time through glibc's
// libmvec. libmvec's exp is not correctly rounded: over 10⁷ arguments in [−700, 0] it stayed within
// 3 ulp of the scalar exp, far below anything the likelihood's optimum depends on. Predictions use
// the scalar loops in kernel.cpp. Elsewhere (other platforms, other compilers) these loops stay
// scalar and equally correct.
#include "radial_profile.hpp"

#include <cmath>

#if defined(__x86_64__) && defined(__GLIBC__) && defined(__GNUC__) && !defined(__clang__)
#pragma omp declare simd notinbranch
extern "C" double exp(double) noexcept;
#define DPBO_VECTOR_LOOP _Pragma("omp simd")
#else
#define DPBO_VECTOR_LOOP
#endif

namespace dpbo::gp::detail {

void squared_exponential_profile(double* values, double* slope, std::size_t count, double variance) {
    DPBO_VECTOR_LOOP
    for (std::size_t i = 0; i < count; ++i) values[i] = variance * std::exp(-0.5 * values[i]);
    if (slope == nullptr) return;
    for (std::size_t i = 0; i < count; ++i) slope[i] = values[i];  // s = σ_f² e^{−r²/2} = k
}

// σ_f² (1 + √5 r + 5r²/3) e^{−√5 r}; s = (5/3) σ_f² (1 + √5 r) e^{−√5 r}, which stays finite at
// r = 0, so no division by r is ever needed.
void matern52_profile(double* values, double* slope, std::size_t count, double variance) {
    const double root5 = std::sqrt(5.0);
    if (slope == nullptr) {
        DPBO_VECTOR_LOOP
        for (std::size_t i = 0; i < count; ++i) {
            const double r2 = values[i];
            const double root5_r = root5 * std::sqrt(r2);
            values[i] = (1.0 + root5_r + (5.0 / 3.0) * r2) * (variance * std::exp(-root5_r));
        }
        return;
    }
    DPBO_VECTOR_LOOP
    for (std::size_t i = 0; i < count; ++i) {
        const double r2 = values[i];
        const double root5_r = root5 * std::sqrt(r2);
        const double decay = variance * std::exp(-root5_r);
        values[i] = (1.0 + root5_r + (5.0 / 3.0) * r2) * decay;
        slope[i] = (5.0 / 3.0) * (1.0 + root5_r) * decay;
    }
}

}  // namespace dpbo::gp::detail
