#!/usr/bin/env bash
# Cross builds the library, the tests and nnapi-run for aarch64 and runs them
# under user-mode emulation (qemu-aarch64):
#   1. the whole CTest suite: the unit tests (test_qkernels and test_quant
#      on each level, test_kernels_isa comparing both NEON levels' kernels
#      with the portable ones bit for bit), nnapi-run on the real models,
#      every conformance vector in all eight modes on the widest level
#      (neondot: qemu's default CPU has the dot product) and in sync mode on
#      each level (neondot, neon, c); about 3 minutes of emulation on 2 cores;
#   2. a compile + link of the portable library for riscv64, which has no
#      kernels of its own (no x86 or NEON code), and its example under qemu.
# Needs gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user zlib1g-dev:arm64
# libstdc++6:arm64 gcc-riscv64-linux-gnu (.ci/run installs them).
# Usage: scripts/test-aarch64.sh
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

step() {
    echo "== aarch64: $1 ($(date +%T))"
}

step "cross build"
cmake -S . -B build-aarch64 -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake >/dev/null
cmake --build build-aarch64 -j "$jobs"
emulator=$(sed -n 's/^NN_QEMU_AARCH64:FILEPATH=//p' build-aarch64/CMakeCache.txt)
prefix=$(sed -n 's/^NN_QEMU_PREFIX:PATH=//p' build-aarch64/CMakeCache.txt)
if [ ! -x "$emulator" ]; then
    echo "qemu-aarch64 not found (apt-get install qemu-user)" >&2
    exit 1
fi
run() { "$emulator" -L "$prefix" "$@"; }

step "the suite (emulated)"
ctest --test-dir build-aarch64 --output-on-failure -j "$jobs"
# The detected level and features, and each conformance run's counts.
run build-aarch64/tests/test_kernels_isa | sed -n 1p
awk '/^[0-9]+\/[0-9]+ Test: cts_/ { name = $3 }
     name != "" && /^[0-9]+ passed, [0-9]+ failed/ { print name ": " $0; name = "" }' \
    build-aarch64/Testing/Temporary/LastTest.log

step "riscv64: portable library, compile + link"
cmake -S . -B build-riscv64 -G Ninja -DCMAKE_BUILD_TYPE=Release -DNN_BUILD_TESTS=OFF \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-riscv64-linux-gnu.cmake >/dev/null
cmake --build build-riscv64 -j "$jobs" --target neuralnetworks neuralnetworks_static example_add
if command -v qemu-riscv64 >/dev/null 2>&1; then
    qemu-riscv64 -L /usr/riscv64-linux-gnu build-riscv64/example_add
fi
step "done"
