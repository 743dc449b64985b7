#!/bin/sh
# Fetches TensorFlow Lite 2.9's prebuilt C library (libtensorflowlite_c.so,
# Linux x86-64) for the TFLite delegate test. It ships inside the npm package
# tfjs-tflite-node@0.0.2; `npm pack` downloads the package without running its
# install script (which would try to compile a Node addon). Test-only: the
# library lands in a git-ignored directory and is never committed.
#
# usage: fetch_tflite.sh [dest dir]   (default: tests/tflite/deps)
# exit:  0 the library is there (already, or fetched and verified)
#        77 it cannot be had here (no npm, no network, not x86-64 Linux)
#        1 something else went wrong (e.g. checksum mismatch)
set -u

here=$(cd "$(dirname "$0")" && pwd)
dest=${1:-$here/deps}
pkg=tfjs-tflite-node@0.0.2
lib=libtensorflowlite_c.so
sha256=dc89b4cd86d956516570bd483668e6dd98907f49901d0567dedc69a29a56b7f7

verify() {
    command -v sha256sum >/dev/null 2>&1 || return 0
    [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$sha256" ]
}

if [ -f "$dest/$lib" ] && verify "$dest/$lib"; then
    exit 0
fi
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
    echo "fetch_tflite: the prebuilt $lib is for Linux x86-64 only" >&2
    exit 77
fi
if ! command -v npm >/dev/null 2>&1; then
    echo "fetch_tflite: npm is not installed" >&2
    exit 77
fi

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "fetch_tflite: npm pack $pkg" >&2
# Few retries: offline, npm would otherwise keep trying for minutes.
if ! (cd "$tmp" && timeout 300 npm pack --loglevel=error --fetch-retries=1 \
        --fetch-retry-mintimeout=2000 --fetch-retry-maxtimeout=5000 "$pkg" \
        >/dev/null 2>"$tmp/npm.err"); then
    echo "fetch_tflite: npm pack $pkg failed (offline?):" >&2
    tail -n 5 "$tmp/npm.err" >&2
    exit 77
fi
if ! tar -xzf "$tmp"/tfjs-tflite-node-*.tgz -C "$tmp" package/cc_deps/linux_amd64/$lib; then
    echo "fetch_tflite: $lib not found in the package" >&2
    exit 1
fi
if ! verify "$tmp/package/cc_deps/linux_amd64/$lib"; then
    echo "fetch_tflite: checksum mismatch for $lib" >&2
    exit 1
fi
# The tests that need the library may fetch it at the same time: each writer
# copies to a name of its own and renames it into place (atomic; the copies
# are identical), so no one reads or moves another's partial file.
part="$dest/$lib.part.$$"
mkdir -p "$dest" && cp "$tmp/package/cc_deps/linux_amd64/$lib" "$part" &&
    mv -f "$part" "$dest/$lib" || { rm -f "$part"; exit 1; }
echo "fetch_tflite: $dest/$lib" >&2
