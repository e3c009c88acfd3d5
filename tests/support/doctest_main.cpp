#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdlib>
#include <exception>
#include <iostream>

#include "dpbo/util/blas_threads.hpp"

int main(int argc, char** argv) {
    try {
        dpbo::limit_blas_threads();  // as the dpbo command does
    } catch (const std::exception& e) {
        std::cerr << argv[0] << ": " << e.what() << "\n";
        return 2;
    }
    // The plugin manifest cache of the tests and of every dpbo they run: in the build tree, never
    // the user's ~/.cache.
    ::setenv("XDG_CACHE_HOME", DPBO_TEST_CACHE_DIR, 1);
    return doctest::Context(argc, argv).run();
}
