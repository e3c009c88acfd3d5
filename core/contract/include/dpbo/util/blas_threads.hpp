#pragma once

namespace dpbo {

// BO works on many small matrices, where BLAS threads cost more than they save (and CPU-time
// benchmarks count every thread). Sets OpenBLAS to DPBO_BLAS_THREADS threads (a whole number from 1
// to 1024), 1 when unset or empty; a no-op with a BLAS that has no such control. Returns the number
// of threads set, or 0 if none was. Throws ValidationError naming the variable and its value when
// DPBO_BLAS_THREADS is set to anything else (it is never quietly replaced by 1).
int limit_blas_threads();

}  // namespace dpbo
