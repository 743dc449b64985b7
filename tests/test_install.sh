#!/bin/sh
# The install paths the README documents, run as written:
#   1. the default prefix: `cmake --install build` into /usr/local, `ldconfig`,
#      then a program built with pkg-config, one built with find_package, and
#      the installed nnapi-run, all without any environment variable. Run as
#      root inside a private mount namespace whose /usr/local and /etc (for
#      ldconfig's cache) are overlays, so the machine is left untouched;
#      reported as skipped where that is not possible (not root, no unshare);
#   2. a prefix of one's own (`--prefix DIR`) with PKG_CONFIG_PATH,
#      LD_LIBRARY_PATH and CMAKE_PREFIX_PATH as documented; the installed
#      nnapi-run runs without LD_LIBRARY_PATH (its RPATH finds the library);
#   3. the static library through NeuralNetworks::neuralnetworks_static: the
#      program runs without the shared library anywhere on its search path.
# usage: test_install.sh SOURCE_DIR BUILD_DIR
set -u
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
skipped=0
expected="relu(a + b) = 1.5 0 3.25 3 15 0"

# check NAME OUTPUT [EXPECTED]: OUTPUT must be EXPECTED (default: example_add's line).
check() {
    if [ "$2" = "${3:-$expected}" ]; then
        passed=$((passed + 1))
        echo "ok: $1"
    else
        failed=$((failed + 1))
        echo "FAIL: $1 printed: $2" >&2
    fi
}

# A CMake project using the installed package: consumer DIR TARGET [CMAKE ARGS].
consumer() {
    mkdir -p "$1"
    cat > "$1/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(NeuralNetworks REQUIRED)
add_executable(app $src/examples/example_add.c)
target_link_libraries(app PRIVATE $2)
CM
    dir=$1
    shift 2
    cmake -S "$dir" -B "$dir/build" "$@" >/dev/null && cmake --build "$dir/build" >/dev/null
}

# nnapi-run's top class on its embedded picture.
top_class() {
    "$1" 2>/dev/null | awk '/^ +[0-9.]+ +[0-9]+ /{ $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }'
}

# 1. Default prefix, in a throwaway overlay of /usr/local.
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
        unshare --mount true 2>/dev/null; then
    mkdir "$tmp/up" "$tmp/work" "$tmp/etc-up" "$tmp/etc-work" "$tmp/sys"
    export src build tmp
    unshare --mount sh -c '
        mount -t overlay overlay -o lowerdir=/usr/local,upperdir="$tmp/up",workdir="$tmp/work" \
            /usr/local &&
            mount -t overlay overlay -o lowerdir=/etc,upperdir="$tmp/etc-up",workdir="$tmp/etc-work" \
            /etc || exit 1
        cmake --install "$build" >/dev/null && ldconfig || exit 1
        cd "$tmp/sys" || exit 1
        cc "$src/examples/example_add.c" $(pkg-config --cflags --libs neuralnetworks) -o app &&
            ./app > pkgconfig.out
        mkdir consumer && cat > consumer/CMakeLists.txt <<CM
cmake_minimum_required(VERSION 3.16)
project(consumer C)
find_package(NeuralNetworks REQUIRED)
add_executable(app $src/examples/example_add.c)
target_link_libraries(app PRIVATE NeuralNetworks::neuralnetworks)
CM
        cmake -S consumer -B consumer/build >/dev/null && cmake --build consumer/build >/dev/null &&
            consumer/build/app > cmake.out
        nnapi-run 2>/dev/null > nnapi-run.out
        exit 0' || echo "FAIL: installing into /usr/local in a private mount namespace" >&2
    check "/usr/local: cc \$(pkg-config ...)" "$(cat "$tmp/sys/pkgconfig.out" 2>/dev/null)"
    check "/usr/local: find_package(NeuralNetworks)" "$(cat "$tmp/sys/cmake.out" 2>/dev/null)"
    check "/usr/local: nnapi-run" \
        "$(awk '/^ +[0-9.]+ +[0-9]+ /{ $1 = ""; $2 = ""; sub(/^ +/, ""); print; exit }' \
            "$tmp/sys/nnapi-run.out" 2>/dev/null)" "tiger cat"
else
    skipped=$((skipped + 3))
    echo "skipped: the /usr/local install (needs root and unshare --mount)"
fi

# 2. A prefix of one's own.
prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >/dev/null || exit 1
out=$(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LD_LIBRARY_PATH="$prefix/lib" sh -c \
    'cc "$0" $(pkg-config --cflags --libs neuralnetworks) -o "$1" && "$1"' \
    "$src/examples/example_add.c" "$tmp/app_pc")
check "--prefix: cc \$(pkg-config ...) with PKG_CONFIG_PATH, LD_LIBRARY_PATH" "$out"

out=$(consumer "$tmp/shared" NeuralNetworks::neuralnetworks -DCMAKE_PREFIX_PATH="$prefix" &&
      "$tmp/shared/build/app")
check "--prefix: find_package with CMAKE_PREFIX_PATH" "$out"

check "--prefix: bin/nnapi-run without LD_LIBRARY_PATH" "$(top_class "$prefix/bin/nnapi-run")" \
    "tiger cat"

# 3. The static library.
out=$(consumer "$tmp/static" NeuralNetworks::neuralnetworks_static \
          -DCMAKE_PREFIX_PATH="$prefix" && "$tmp/static/build/app")
check "--prefix: NeuralNetworks::neuralnetworks_static" "$out"
if ldd "$tmp/static/build/app" 2>/dev/null | grep -q libneuralnetworks; then
    failed=$((failed + 1))
    echo "FAIL: the static consumer depends on libneuralnetworks.so" >&2
else
    passed=$((passed + 1))
fi

if [ "$skipped" -gt 0 ]; then
    echo "$passed passed, $failed failed, $skipped skipped"
else
    echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
