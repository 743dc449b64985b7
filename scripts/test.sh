#!/usr/bin/env bash
# Builds the library and runs the test suite in every configuration, then
# prints one summary line per stage and, last, `N passed, N failed` over all
# stages (CI reads that line). Every stage runs even when an earlier one
# failed; the exit status is non-zero if any stage failed.
# Usage: scripts/test.sh [--quick]   (--quick: the stages not marked --full,
#                                     i.e. the optimised build and its suite)
set -uo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
quick=false
case "${1:-}" in
    "") ;;
    --quick) quick=true ;;
    *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

# Each sanitizer reads only its own variable, so all can be set for every stage.
export ASAN_OPTIONS=detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

configure() {
    local dir=$1
    shift
    cmake -S . -B "$dir" -G Ninja "$@" >/dev/null
}

# suite DIR CMAKE_ARGS...: configure, build everything, run the whole suite.
suite() {
    local dir=$1
    configure "$@" && cmake --build "$dir" -j "$jobs" &&
        ctest --test-dir "$dir" --output-on-failure -j "$jobs"
}

# The libFuzzer targets under ASan+UBSan: seeds, past findings, then a
# fixed-seed mutation run each (tests/fuzz/CMakeLists.txt).
fuzz() {
    configure build-fuzz -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DNN_SANITIZE=ON -DNN_FUZZ=ON &&
        cmake --build build-fuzz -j "$jobs" --target fuzz_api fuzz_cache &&
        ctest --test-dir build-fuzz --output-on-failure -R '^fuzz_(api|cache)'
}

logs=$(mktemp -d) || exit 1
trap 'rm -rf "$logs"' EXIT
summary=()
total_passed=0
total_failed=0
total_skipped=0
any_failed=false
start=$SECONDS

# Reads a stage's log: the sums of every CTest summary in it, else the last
# `N passed, N failed` line; prints "passed failed skipped" or nothing.
counts() {
    awk '
        /tests passed, [0-9]+ tests? failed out of [0-9]+/ {
            n = split($0, w, " ")
            for (i = 1; i <= n; i++) if (w[i] == "out") total += w[i + 2]
            failed += w[4]; found = 1
        }
        /^The following tests did not run:/ { inskip = 1; next }
        inskip && /\(Skipped\)/ { skipped++; next }
        { inskip = 0 }
        /^[A-Za-z]*:? ?[0-9]+ passed, [0-9]+ failed/ { line = $0 }
        END {
            if (found) print total - failed - skipped, failed, skipped + 0
            else if (line != "") {
                sub(/^[A-Za-z]*: */, "", line); split(line, v, /[ ,]+/)
                print v[1], v[3], (v[5] == "" ? 0 : v[5])
            }
        }' "$1"
}

# stage [--full] [--needs PROGRAM] NAME COMMAND...: runs COMMAND as one stage.
# --full: left out by --quick. --needs: skipped (and said so) without PROGRAM.
stage() {
    local full=false needs=""
    while :; do
        case "$1" in
            --full) full=true; shift ;;
            --needs) needs=$2; shift 2 ;;
            *) break ;;
        esac
    done
    local name=$1
    shift
    if $full && $quick; then
        summary+=("$(printf '%-32s skipped (--quick)' "$name")")
        return
    fi
    if [ -n "$needs" ] && ! command -v "$needs" >/dev/null 2>&1; then
        echo "== $name: skipped, $needs not found"
        summary+=("$(printf '%-32s skipped (%s not found)' "$name" "$needs")")
        return
    fi
    echo "== $name ($(date +%T))"
    local log="$logs/${#summary[@]}.log" t0=$SECONDS status=passed
    "$@" 2>&1 | tee "$log" || status=FAILED
    local c p f s
    c=$(counts "$log")
    if [ -n "$c" ]; then
        read -r p f s <<< "$c"
    elif [ $status = passed ]; then
        p=1 f=0 s=0
    else
        p=0 f=1 s=0   # failed before any test ran (configure or build)
    fi
    # A stage whose runner exited non-zero with no failed test still failed.
    if [ $status = FAILED ] && [ "$f" -eq 0 ]; then f=1; fi
    [ $status = FAILED ] && any_failed=true
    total_passed=$((total_passed + p))
    total_failed=$((total_failed + f))
    total_skipped=$((total_skipped + s))
    summary+=("$(printf '%-32s %-7s %4d passed, %d failed, %d skipped  %4d s' \
        "$name" $status "$p" "$f" "$s" $((SECONDS - t0)))")
}

# The stages, in order. Adding one is one line: stage [--full] [--needs PROGRAM]
# NAME COMMAND... (COMMAND may be a function above; its CTest summaries, or its
# last `N passed, N failed` line, give the stage's counts).
stage "optimised build" suite build -DCMAKE_BUILD_TYPE=Release
stage --full "ASan + UBSan build" suite build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNN_SANITIZE=ON
stage --full --needs clang "fuzzing (clang, ASan + UBSan)" fuzz
# Every test runs under TSan but test_alloc_failure, which replaces malloc as
# the sanitizer runtimes do not allow (tests/CMakeLists.txt).
stage --full --needs clang "ThreadSanitizer build (clang)" suite build-tsan \
    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNN_TSAN=ON
# aarch64 cross build under qemu-user (unit tests, nnapi-run, every CTS vector
# in sync mode per kernel level) and a riscv64 portable build.
stage --full --needs qemu-aarch64 "aarch64 (cross, qemu)" scripts/test-aarch64.sh

echo
echo "== summary (stage, result, tests, time)"
printf '%s\n' "${summary[@]}"
echo "total time $((SECONDS - start)) s"
if [ "$total_skipped" -gt 0 ]; then
    echo "$total_passed passed, $total_failed failed, $total_skipped skipped"
else
    echo "$total_passed passed, $total_failed failed"
fi
! $any_failed
