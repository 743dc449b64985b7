#!/bin/sh
# Installs the build into a temporary prefix and builds examples/example_add.c
# against it twice, as a user would: through pkg-config, and through the CMake
# package with find_package(NeuralNetworks). Both programs must run and print
# the expected sums.
# usage: test_install.sh SOURCE_DIR BUILD_DIR
set -u
src=$1
build=$2
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() {
    if [ "$2" = "relu(a + b) = 1.5 0 3.25 3 15 0" ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL: $1 printed: $2" >&2
    fi
}

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null || exit 1

out=$(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" sh -c \
    'cc "$0" $(pkg-config --cflags --libs neuralnetworks) -o "$1"' \
    "$src/examples/example_add.c" "$tmp/ex_pc" && LD_LIBRARY_PATH="$tmp/prefix/lib" "$tmp/ex_pc")
check pkg-config "$out"

mkdir -p "$tmp/consumer"
cat > "$tmp/consumer/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(NeuralNetworks REQUIRED)
add_executable(ex_cmake $src/examples/example_add.c)
target_link_libraries(ex_cmake PRIVATE NeuralNetworks::neuralnetworks)
CM
out=$(cmake -S "$tmp/consumer" -B "$tmp/consumer/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
          >/dev/null && cmake --build "$tmp/consumer/build" >/dev/null &&
      "$tmp/consumer/build/ex_cmake")
check find_package "$out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
