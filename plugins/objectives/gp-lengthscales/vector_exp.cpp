#include "vector_exp.hpp"

#include <cmath>

#if defined(__x86_64__) && defined(__GLIBC__)
#include <immintrin.h>
// libmvec's four-lane AVX2 exp, named by the x86-64 vector function ABI. glibc declares it only
// under -ffast-math, which this plugin does not want for the rest of its arithmetic.
extern "C" __m256d _ZGVdN4v_exp(__m256d);
#define DPBO_GP_LENGTHSCALES_LIBMVEC 1
#endif

namespace dpbo::gp_lengthscales {

namespace {

void exp_scalar(double* values, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) values[i] = std::exp(values[i]);
}

#ifdef DPBO_GP_LENGTHSCALES_LIBMVEC
__attribute__((target("avx2"))) void exp_avx2(double* values, std::size_t count) {
    std::size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        _mm256_storeu_pd(values + i, _ZGVdN4v_exp(_mm256_loadu_pd(values + i)));
    }
    exp_scalar(values + i, count - i);
}

bool cpu_has_avx2() {
    static const bool has_avx2 = __builtin_cpu_supports("avx2") != 0;
    return has_avx2;
}
#endif

}  // namespace

void exp_in_place(double* values, std::size_t count) {
#ifdef DPBO_GP_LENGTHSCALES_LIBMVEC
    if (cpu_has_avx2()) {
        exp_avx2(values, count);
        return;
    }
#endif
    exp_scalar(values, count);
}

}  // namespace dpbo::gp_lengthscales
