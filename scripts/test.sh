#!/usr/bin/env bash
# Builds the library and runs the whole test suite twice: an optimised
# build, then an AddressSanitizer + UndefinedBehaviorSanitizer build.
# Usage: scripts/test.sh [--quick]   (--quick: the optimised run only)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

run_suite() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
    cmake --build "$dir" -j "$jobs"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

run_suite build -DCMAKE_BUILD_TYPE=Release
if [ "${1:-}" != "--quick" ]; then
    # The sanitizers need clang's or gcc's runtime; both ship with the compilers.
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNN_SANITIZE=ON
fi
