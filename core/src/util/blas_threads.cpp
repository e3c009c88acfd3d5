#include "dpbo/util/blas_threads.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace dpbo {

int limit_blas_threads() {
    int threads = 1;
    if (const char* text = std::getenv("DPBO_BLAS_THREADS"); text != nullptr && *text != '\0') {
        try {
            threads = std::max(1, std::stoi(text));
        } catch (const std::exception&) {
            threads = 1;
        }
    }
    // Looked up at run time: Armadillo reaches BLAS through Debian's alternatives, so OpenBLAS may
    // or may not be the library behind it.
    using SetThreads = void (*)(int);
    auto* set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (set == nullptr) return 0;
    set(threads);
    return threads;
}

}  // namespace dpbo
