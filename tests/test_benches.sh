#!/bin/sh
# Every benchmark still runs to its end: each is run on its smallest
# workload, and must exit 0 and print the line that carries its figures
# (a benchmark that fails part-way through prints figures for part of its
# cases, which nobody notices without this check). Times are not checked:
# speed is judged from the benchmarks' own figures, never in a test.
#
# usage: test_benches.sh <directory of the bench executables>
set -u

dir=$1
passed=0
failed=0
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT

# run NAME PATTERN COMMAND...: COMMAND exits 0 and prints a line matching PATTERN.
run() {
    name=$1
    pattern=$2
    shift 2
    if "$@" >"$out" 2>&1 && grep -Eq "$pattern" "$out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAILED: $name ($*): no line matching '$pattern', or a non-zero exit" >&2
        tail -n 20 "$out" >&2
    fi
}

run bench_layers 'float32 +conv1x1 .*GFLOP/s' "$dir/bench_layers" 0.001
run bench_rnn 'float32 +seq RNN .*batch 8 .*ms per run' "$dir/bench_rnn" 0.001
run bench_graph 'asynchronous computations' "$dir/bench_graph" 1000
run bench_int8_peak 'GOP/s' "$dir/bench_int8_peak" 0.01
run bench_qops '^lookup .* ms' "$dir/bench_qops" 1
run bench_pool 'chunks run by workers' env NNAPI_LINUX_THREADS=2 "$dir/bench_pool" 10
run bench_mobilenet '^v2 +int8 +2 ' "$dir/bench_mobilenet" --runs 1 --threads 1,2
# The last column says whether cached and uncached compilations gave
# bit-identical outputs: every model must say yes.
run bench_compile '^mobilenet_v1_1.0_f32 .* yes$' "$dir/bench_compile" --runs 1
if grep -Eq ' no$' "$out"; then
    failed=$((failed + 1))
    echo "FAILED: bench_compile: a cached compilation gave different outputs" >&2
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
