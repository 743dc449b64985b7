#!/bin/sh
# The public headers document every symbol: Doxygen, configured by
# docs/Doxyfile (WARN_IF_UNDOCUMENTED, warnings as errors), must run without a
# single warning. Exits 77 (skipped) where doxygen is not installed.
# usage: test_doxygen.sh DOXYFILE
set -u
if ! command -v doxygen >/dev/null 2>&1; then
    echo "SKIPPED: doxygen is not installed (Debian package doxygen)"
    exit 77
fi
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
doxygen "$1" >/dev/null 2>"$log"
status=$?
warnings=$(grep -c . "$log")
cat "$log"
echo "doxygen: $warnings warning line(s), exit status $status"
if [ "$status" -eq 0 ] && [ "$warnings" -eq 0 ]; then
    echo "1 passed, 0 failed"
else
    echo "0 passed, 1 failed"
    exit 1
fi
