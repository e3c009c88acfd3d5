#include "dpbo/util/blas_threads.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "dpbo/errors.hpp"

namespace dpbo {

namespace {

// More threads than any machine dpbo runs on has cores; a larger value is a typo.
constexpr long kMaxBlasThreads = 1024;

// DPBO_BLAS_THREADS as a whole number in [1, kMaxBlasThreads]; unset or empty means 1. Anything else
// is refused (ValidationError naming the variable), never quietly replaced by 1.
int wanted_threads() {
    const char* text = std::getenv("DPBO_BLAS_THREADS");
    if (text == nullptr || *text == '\0') return 1;
    const std::string value(text);
    const bool digits = std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const long threads = digits && value.size() <= 6 ? std::strtol(text, nullptr, 10) : 0;
    if (threads < 1 || threads > kMaxBlasThreads)
        throw ValidationError(
            fmt::format("DPBO_BLAS_THREADS='{}' is not a whole number from 1 to {}; unset it for 1 "
                        "BLAS thread",
                        value, kMaxBlasThreads));
    return static_cast<int>(threads);
}

}  // namespace

int limit_blas_threads() {
    const int threads = wanted_threads();
    // Looked up at run time: Armadillo reaches BLAS through Debian's alternatives, so OpenBLAS may
    // or may not be the library behind it.
    using SetThreads = void (*)(int);
    auto* set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
    if (set == nullptr) return 0;
    set(threads);
    return threads;
}

}  // namespace dpbo
