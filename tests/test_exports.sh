#!/bin/sh
# The shared library exports exactly the functions the public header declares
# (no internal symbol leaks, none missing), leaves out the Android-only
# AHardwareBuffer entry point, and carries the SONAME libneuralnetworks.so.
# The SL driver build exports its entry point alone and needs no dynamic
# binding of an NNAPI symbol (its calls resolve inside it).
#
# usage: test_exports.sh <libneuralnetworks.so> <include dir> [C compiler]
#                        [libnnapi_linux_cpu_sl.so]
set -u

lib=$1
incdir=$2
cc=${3:-cc}
sl=${4:-}
passed=0
failed=0
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAILED: $*" >&2; }

# Functions of the header: preprocess it as a Linux translation unit (so
# #ifdef __ANDROID__ parts drop out) and take every API identifier that is
# followed by an opening parenthesis.
printf '#include <android/NeuralNetworks.h>\n' > "$tmp/h.c"
if ! "$cc" -E -P -I"$incdir" "$tmp/h.c" > "$tmp/h.i"; then
    fail "cannot preprocess $incdir/android/NeuralNetworks.h"
    echo "$passed passed, $failed failed"
    exit 1
fi
grep -oE 'ANeuralNetworks[A-Za-z0-9_]*[[:space:]]*\(' "$tmp/h.i" | tr -d ' (' | sort -u > "$tmp/declared"

# Dynamic symbols the library defines (names only, version suffixes dropped).
nm -D --defined-only "$lib" | awk '{print $NF}' | sed 's/@.*//' | sort -u > "$tmp/exported"

n_declared=$(wc -l < "$tmp/declared")
if [ "$n_declared" -eq 68 ]; then pass; else fail "header declares $n_declared functions, expected 68"; fi

missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [ -z "$missing" ]; then pass; else fail "declared but not exported: $(echo $missing)"; fi

extra=$(comm -13 "$tmp/declared" "$tmp/exported")
if [ -z "$extra" ]; then pass; else fail "exported but not declared: $(echo $extra)"; fi

if grep -qx ANeuralNetworksMemory_createFromAHardwareBuffer "$tmp/exported"; then
    fail "ANeuralNetworksMemory_createFromAHardwareBuffer is exported"
else
    pass
fi
if grep -q createFromAHardwareBuffer "$tmp/h.i"; then
    fail "the header declares createFromAHardwareBuffer outside __ANDROID__"
else
    pass
fi

soname=$(readelf -d "$lib" | sed -n 's/.*(SONAME).*\[\(.*\)\].*/\1/p')
if [ "$soname" = "libneuralnetworks.so" ]; then pass; else fail "SONAME is '$soname'"; fi

if [ -n "$sl" ]; then
    sl_exports=$(nm -D --defined-only "$sl" | awk '{print $NF}' | sed 's/@.*//' | sort -u | tr '\n' ' ')
    if [ "$sl_exports" = "ANeuralNetworks_getSLDriverImpl " ]; then pass; else fail "$sl exports: $sl_exports"; fi
    if readelf -r "$sl" | grep -q 'ANeuralNetworks'; then
        fail "$sl binds NNAPI symbols dynamically: $(readelf -r "$sl" | grep -o 'ANeuralNetworks[A-Za-z0-9_]*' | sort -u | tr '\n' ' ')"
    else
        pass
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
