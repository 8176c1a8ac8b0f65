#!/usr/bin/env bash
# `make deb`: the Debian packages of an existing build directory, without building it again.
# The build is reconfigured in place for /usr (CMAKE_INSTALL_PREFIX, which makes GNUInstallDirs
# pick the multiarch library directory and leaves bin/kiln without RUNPATH, cli/CMakeLists.txt;
# Debian zsh's vendor-completions), packed by CPack (cmake/KilnPackage.cmake) into OUTDIR, and
# put back as it was, even when packing fails. Neither configure touches a compile flag: no
# object is rebuilt, at most bin/kiln is relinked. A sanitizer or fuzz build is refused (its
# binaries need the sanitizer runtime).
# Usage: make-deb.sh BUILD OUTDIR [-v]
set -euo pipefail
if [ $# -lt 2 ] || [ -z "$1" ] || [ -z "$2" ]; then echo "usage: make-deb.sh BUILD OUTDIR [-v]" >&2; exit 2; fi
build=$1 out=$2 verbose=${3:-}
cache=$build/CMakeCache.txt
[ -f "$cache" ] || { echo "make deb: no build in $build (run make first)" >&2; exit 2; }
get() { sed -n "s/^$1:[A-Z]*=//p" "$cache"; }
for opt in KILN_SANITIZE KILN_FUZZ; do
    if [ "$(get "$opt")" = ON ]; then
        echo "make deb: $build is built with $opt=ON, which a package cannot hold;" \
             "package another build: make deb BUILD=build-release" >&2
        exit 2
    fi
done
quiet=(--log-level=WARNING) # for this run only, not kept in the cache
[ -n "$verbose" ] && quiet=()
configure() { # PREFIX ZSH_DIR
    cmake "$build" "${quiet[@]}" -DCMAKE_INSTALL_PREFIX="$1" -DKILN_ZSH_COMPLETION_DIR="$2" >/dev/null
}
prefix=$(get CMAKE_INSTALL_PREFIX)
zsh_dir=$(get KILN_ZSH_COMPLETION_DIR)
if [ "$prefix" != /usr ] || [ "$zsh_dir" != share/zsh/vendor-completions ]; then
    trap 'configure "$prefix" "$zsh_dir"' EXIT
    configure /usr share/zsh/vendor-completions
fi
# whatever the reconfigure made out of date is rebuilt here, in parallel (nothing, as a rule: the
# Makefile's `all` has just built the rest)
if [ -n "$verbose" ]; then
    cmake --build "$build" -j "${JOBS:-$(nproc)}" --verbose
else
    cmake --build "$build" -j "${JOBS:-$(nproc)}" | { grep -v '^\[ *[0-9]*%\] Built target ' || true; }
fi
rm -rf "$out/_CPack_Packages"
rm -f "$out"/*.deb
if [ -n "$verbose" ]; then
    cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out"
else
    cpack -G DEB --config "$build/CPackConfig.cmake" -B "$out" >/dev/null
fi
rm -rf "$out/_CPack_Packages"
ls -1 "$out"/*.deb
