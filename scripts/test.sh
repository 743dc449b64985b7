#!/usr/bin/env bash
# Builds the library and runs the test suite in every configuration:
#   1. optimised build, the whole suite;
#   2. AddressSanitizer + UndefinedBehaviorSanitizer build, the whole suite;
#   3. (clang) the libFuzzer target under ASan+UBSan: seeds, past findings,
#      then a fixed-seed mutation run (tests/fuzz/CMakeLists.txt);
#   4. (clang) ThreadSanitizer build, the suite;
#   5. aarch64 cross build under qemu-user, and a riscv64 portable build
#      (scripts/test-aarch64.sh).
# Usage: scripts/test.sh [--quick]   (--quick: stage 1 only)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

stage() {
    echo "== $1 ($(date +%T))"
}

configure() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
}

configure_build() {
    configure "$@"
    cmake --build "$1" -j "$jobs"
}

run_suite() {
    local dir=$1
    shift
    configure_build "$dir" "$@"
    ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

stage "optimised build"
run_suite build -DCMAKE_BUILD_TYPE=Release
if [ "${1:-}" != "--quick" ]; then
    # The sanitizers need clang's or gcc's runtime; both ship with the compilers.
    stage "ASan + UBSan build"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        run_suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNN_SANITIZE=ON
    if command -v clang >/dev/null 2>&1; then
        stage "fuzzing (clang, ASan + UBSan)"
        configure build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
            -DNN_SANITIZE=ON -DNN_FUZZ=ON
        cmake --build build-fuzz -j "$jobs" --target fuzz_api
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            ctest --test-dir build-fuzz --output-on-failure -R '^fuzz_api'
        # Every test runs under TSan but test_alloc_failure, which replaces
        # malloc as the sanitizer runtimes do not allow (tests/CMakeLists.txt).
        stage "ThreadSanitizer build (clang)"
        TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
            run_suite build-tsan -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
            -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNN_TSAN=ON
    else
        echo "clang not found: fuzzing and ThreadSanitizer stages skipped"
    fi
    if command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1; then
        stage "aarch64 cross build under qemu"
        scripts/test-aarch64.sh
    else
        echo "aarch64-linux-gnu-gcc or qemu-aarch64 not found: aarch64 stage skipped (.ci/run installs them)"
    fi
fi
