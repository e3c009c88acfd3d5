#!/usr/bin/env bash
# Runs the whole test suite on the build cmake/setup.sh made (build/, or DPBO_BUILD_DIR). With
# CI=true (or DPBO_SANITIZE_TESTS=1) it then builds the unit tests with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ (or DPBO_ASAN_BUILD_DIR) and runs them there too: memory
# errors and undefined behaviour that a normal build hides fail CI. Exits non-zero if either fails.
set -euo pipefail

source_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${DPBO_BUILD_DIR:-$source_dir/build}
asan_dir=${DPBO_ASAN_BUILD_DIR:-$source_dir/build-asan}

status=0
ctest --test-dir "$build_dir" --output-on-failure -j2 || status=$?

if [[ "${CI:-}" == true || "${DPBO_SANITIZE_TESTS:-}" == 1 ]]; then
    echo "dpbo tests: the unit tests under AddressSanitizer and UndefinedBehaviorSanitizer ($asan_dir)"
    # -O1: the sanitizers' own guidance for speed with usable reports; the build is the bulk of the time.
    # Warnings are not errors here: GCC 12's -Wmaybe-uninitialized misfires inside libstdc++'s
    # <regex> under the sanitizers' instrumentation; the normal build above is the warnings gate.
    cmake -S "$source_dir" -B "$asan_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE=-O1 \
        -DDPBO_SANITIZE=ON -DDPBO_WERROR=OFF >/dev/null
    cmake --build "$asan_dir" -j "$(nproc)" --target dpbo_unit_tests
    # Leaks are reported by LeakSanitizer at exit; halting on the first error keeps the report readable.
    ASAN_OPTIONS=${ASAN_OPTIONS:-halt_on_error=1:detect_leaks=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
        ctest --test-dir "$asan_dir" --output-on-failure -j2 -R '^unit:' || status=$?
fi
exit $status
