#!/bin/sh
# Installs the Debian packages nnapi-linux needs, through apt-get. Works as root
# (containers, CI images: no sudo needed) and as a user with sudo.
#   scripts/install-deps.sh          what building the library and tools needs
#   scripts/install-deps.sh --all    also what every stage of scripts/test.sh
#                                    uses: clang with its sanitizer and libFuzzer
#                                    runtimes, and doxygen for the header check
# Packages already installed are left alone; with none missing, apt is not run.
set -eu

packages="build-essential cmake ninja-build pkg-config zlib1g-dev"
case "${1:-}" in
    "") ;;
    --all) packages="$packages clang libclang-rt-14-dev doxygen" ;;
    *) echo "usage: $0 [--all]" >&2; exit 2 ;;
esac

# Installed for this machine's architecture: `dpkg -s` fails on a package
# that is also installed for another one (e.g. a cross-compiling zlib1g-dev).
native=$(dpkg --print-architecture)
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status} ${Architecture}\n' "$p" 2>/dev/null |
        grep -Eq "ok installed ($native|all)\$" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" -eq 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "install-deps: not root and sudo is not installed; as root run:" >&2
    echo "  apt-get update && apt-get install -y$missing" >&2
    exit 1
fi
# The environment variable has to cross sudo, which resets the environment.
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
