#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "dpbo/util/blas_threads.hpp"

int main(int argc, char** argv) {
    dpbo::limit_blas_threads();  // as the dpbo command does
    return doctest::Context(argc, argv).run();
}
