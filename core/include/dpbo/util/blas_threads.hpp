#pragma once

namespace dpbo {

// BO works on many small matrices, where BLAS threads cost more than they save (and CPU-time
// benchmarks count every thread). Sets OpenBLAS to DPBO_BLAS_THREADS threads, 1 when unset; a no-op
// with a BLAS that has no such control. Returns the number of threads set, or 0 if none was.
int limit_blas_threads();

}  // namespace dpbo
