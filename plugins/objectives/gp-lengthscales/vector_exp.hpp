#pragma once
// exp over a contiguous array: after the Cholesky factorisation, the largest cost of an evaluation
// (1.5 million exponentials per point at the default size, about a third of its time with
// std::exp). On x86-64 with glibc and a CPU with AVX2, glibc's vector math library (libmvec)
// computes four at a time, about 4× faster and within a few ulp of std::exp; elsewhere std::exp.
#include <cstddef>

namespace dpbo::gp_lengthscales {

void exp_in_place(double* values, std::size_t count);

}  // namespace dpbo::gp_lengthscales
