#!/usr/bin/env bash
# kiln installed as a user installs it, from the build directory holding KILN: `cmake --install`
# with DESTDIR (kiln.pc then names the prefix, PKG_CONFIG_SYSROOT_DIR maps it to where the files
# landed); libkiln.so's SONAME and exports (exactly the functions include/kiln.h declares);
# bin/kiln run from the install; tests/install/app.c built with pkg-config alone, against
# libkiln.so and against libkiln.a (which must need kiln.pc's Libs.private), and with
# find_package(kiln); with KILN_TEST_DEB=1 the .debs CPack makes (tests/install/check_deb.sh: their
# files and their dependencies); README.md's block for an install to a PREFIX of one's own (make install, pkg-config,
# the program run without LD_LIBRARY_PATH: kiln.pc's rpath), run as README.md gives it; the
# programs of examples/ built with pkg-config alone. app checks published answers (FIPS 180-2, RFC 7914).
# kiln.pc's Libs.private names -l flags only: a CUDA build's static link adds -L to the toolkit's
# library directory itself (its libcudart_static.a is outside the linker's search path).
# Skipped in sanitizer and fuzz builds, whose libraries need the sanitizer runtime to link.
# Usage: test_install.sh KILN DATA_DIR
set -u
build=$(cd "$(dirname "$1")" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)
. "$(dirname "$0")/cli_util.sh"
T=$TMP
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
has() { if printf '%s\n' "$1" | grep -qE -- "$2"; then ok; else bad "$3: no /$2/ in: $1"; fi; }
# runs "$@", its output in $T/log, shown when it fails
run() { if "$@" >"$T/log" 2>&1; then ok; else bad "$*"; cat "$T/log" >&2; return 1; fi; }
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }

[ -f "$build/CMakeCache.txt" ] || { echo "no CMakeCache.txt beside $1" >&2; exit 2; }
if [ "$(cache KILN_SANITIZE)" = ON ] || [ "$(cache KILN_FUZZ)" = ON ] || [ "$(cache KILN_SHARED)" = OFF ]; then
    echo "skipped: a sanitizer, fuzz or static-only build"
    exit 77
fi
cc=$(cache CMAKE_C_COMPILER)
version=$(cache CMAKE_PROJECT_VERSION)
libdir=$(cache CMAKE_INSTALL_LIBDIR)
cuda=$(cache CMAKE_CUDA_COMPILER)
abc=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad # FIPS 180-2 B.1

# ---- install with DESTDIR (kiln.pc then names /opt/kiln: pkg-config's sysroot maps it back)
DESTDIR=$T/dest run cmake --install "$build" --prefix /opt/kiln || exit 1
P=$T/dest/opt/kiln
L=$P/$libdir
for f in bin/kiln include/kiln.h "$libdir/libkiln.so.$version" "$libdir/libkiln.a" "$libdir/pkgconfig/kiln.pc" \
         "$libdir/cmake/kiln/kilnConfig.cmake" "$libdir/cmake/kiln/kilnConfigVersion.cmake"; do
    if [ -f "$P/$f" ]; then ok; else bad "not installed: $f"; fi
done
same "$(readlink "$L/libkiln.so")" "libkiln.so.${version%%.*}" "libkiln.so"
same "$(readlink "$L/libkiln.so.${version%%.*}")" "libkiln.so.$version" "libkiln.so.MAJOR"
same "$(readelf -d "$L/libkiln.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')" "libkiln.so.${version%%.*}" "SONAME"

# exported: the functions kiln.h declares (comments stripped by the preprocessor), nothing else
"$cc" -E -P "$src/include/kiln.h" | grep -oE '\bkiln_[a-z0-9_]+ *\(' | tr -d ' (' | sort -u >"$T/declared"
nm -D --defined-only "$L/libkiln.so" | awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' | sort -u >"$T/exported"
if [ -s "$T/declared" ] && diff "$T/declared" "$T/exported" >"$T/diff"; then ok; else
    bad "libkiln.so's exports differ from kiln.h's functions (< declared only, > exported only):"
    cat "$T/diff" >&2
fi

# bin/kiln finds the installed libkiln.so by itself (through its RUNPATH), unless the build was
# configured for a prefix whose library directory the dynamic linker searches anyway (/usr)
if [ "$(cache CMAKE_INSTALL_PREFIX)" = /usr ]; then kiln_env=(env LD_LIBRARY_PATH="$L"); else kiln_env=(); fi
same "$(printf abc | "${kiln_env[@]}" "$P/bin/kiln" hash --algo sha256 -)" "$abc  -" "installed kiln hash"
same "$(readlink -f "$("${kiln_env[@]}" ldd "$P/bin/kiln" | sed -n 's/.*libkiln[^ ]* => \([^ ]*\).*/\1/p')")" \
    "$(readlink -f "$L/libkiln.so.$version")" "installed kiln's libkiln"

# ---- pkg-config: the shared library
export PKG_CONFIG_PATH=$L/pkgconfig PKG_CONFIG_SYSROOT_DIR=$T/dest
same "$(sed -n 's/^prefix=//p' "$L/pkgconfig/kiln.pc")" /opt/kiln "kiln.pc's prefix"
same "$(pkg-config --modversion kiln)" "$version" "pkg-config --modversion"
# shellcheck disable=SC2046 # word splitting of pkg-config's flags is intended
run "$cc" -o "$T/app" "$src/tests/install/app.c" $(pkg-config --cflags --libs kiln)
has "$(readelf -d "$T/app")" "NEEDED.*libkiln\.so\.${version%%.*}" "app links libkiln.so"
same "$(LD_LIBRARY_PATH=$L "$T/app" 2>&1)" ok "app (pkg-config, shared)"

# ---- every program of examples/, built against the install with pkg-config alone and run (their
# answers are checked in full by test_examples.sh against the build tree; here, that they build
# and give the same first answer)
for c in "$src"/examples/*.c; do
    name=$(basename "$c" .c)
    # shellcheck disable=SC2046 # word splitting of pkg-config's flags is intended
    run "$cc" -Wall -Wextra -Werror -o "$T/ex_$name" "$c" $(pkg-config --cflags --libs kiln) || continue
done
[ -x "$T/ex_hash" ] && same "$(LD_LIBRARY_PATH=$L "$T/ex_hash" sha256 abc)" "$abc  abc" "examples/hash.c, installed"
[ -x "$T/ex_mine" ] && same "$(LD_LIBRARY_PATH=$L "$T/ex_mine" cpu)" \
    "nonce=2083236893 hash=000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f" "examples/mine.c, installed"
[ -x "$T/ex_scrypt" ] && same "$(LD_LIBRARY_PATH=$L "$T/ex_scrypt" password NaCl 1024 8 16 64 | cut -c1-16)" fdbabe1c9d347200 \
    "examples/scrypt.c, installed (RFC 7914)"

# ---- pkg-config --static: libkiln.a (named as the archive: -lkiln would take the .so beside it)
static_libs=$(pkg-config --static --libs kiln | sed 's/-lkiln\b/-l:libkiln.a/')
# the sysroot maps every -L, also those outside the install (the CUDA toolkit's, under /usr/local
# on some machines): those stay where they are
mapped=()
for w in $static_libs; do
    case $w in -L"$T/dest"/*) [ -d "${w#-L}" ] || w=-L${w#-L"$T/dest"} ;; esac
    mapped+=("$w")
done
static_libs=${mapped[*]}
[ -n "$cuda" ] && static_libs="-L$(dirname "$(cache CUDA_cudart_static_LIBRARY)") $static_libs"
# shellcheck disable=SC2046,SC2086
run "$cc" -o "$T/app_static" "$src/tests/install/app.c" $(pkg-config --cflags kiln) $static_libs
if readelf -d "$T/app_static" | grep -q 'libkiln\.so'; then bad "app_static needs libkiln.so"; else ok; fi
same "$("$T/app_static" 2>&1)" ok "app (pkg-config --static)"
# without Libs.private the same link fails: app really reaches OpenMP, zlib (and the CUDA runtime)
# shellcheck disable=SC2046
if "$cc" -o "$T/app_bare" "$src/tests/install/app.c" $(pkg-config --cflags kiln) -L"$L" -l:libkiln.a >/dev/null 2>&1; then
    bad "app links libkiln.a without Libs.private: the static check above proves nothing"
else ok; fi

# ---- README's install to a PREFIX of the user's and a program built there, run exactly as README.md
# gives it (the block after its marker line) from the repository root, with HOME and app.c this
# test's own: the program must run with no LD_LIBRARY_PATH, and load the libkiln.so of that install
# (not one the dynamic linker knows from elsewhere, e.g. an installed libkiln0)
block=$(awk '$0 == "<!-- tests/test_install.sh runs the next block -->" { f = 1; next }
             f == 1 && /^```/ { f = 2; next } f == 2 && /^```/ { exit } f == 2' "$src/README.md")
has "$block" 'make install PREFIX=' "README's block marked for tests/test_install.sh"
if [ "$libdir" != lib ]; then
    echo "(README's PREFIX block not run: this build's library directory is $libdir, not make's lib)"
else
    mkdir -p "$T/home" "$T/work"
    cp -r "$src/examples" "$T/work/"
    if (
        cd "$T/work" || exit
        export HOME=$T/home
        unset LD_LIBRARY_PATH PKG_CONFIG_PATH PKG_CONFIG_SYSROOT_DIR MAKEFLAGS MAKELEVEL MFLAGS
        # shellcheck disable=SC2317 # called by the block: make in the root, on this build
        make() { command make -C "$src" BUILD="$build" "$@"; }
        set -e
        eval "$block"
    ) >"$T/readme.log" 2>&1; then ok; else bad "README's PREFIX block failed:"; cat "$T/readme.log" >&2; fi
    # the output the README shows under its block (FIPS 180-2 B.1)
    same "$(tail -n 1 "$T/readme.log")" "$(awk '$0 == "<!-- tests/test_install.sh runs the next block -->" { f = 1 }
        f && /^# / { print substr($0, 3); exit }' "$src/README.md")" "README's program's output"
    same "$(tail -n 1 "$T/readme.log")" "$abc  abc" "README's program's output, FIPS 180-2 B.1"
    prog=$(printf '%s\n' "$block" | sed -n 's/.* -o \([^ ]*\) .*/\1/p' | head -1)
    same "$(readlink -f "$(env -u LD_LIBRARY_PATH ldd "$T/work/$prog" | sed -n 's/.*libkiln[^ ]* => \([^ ]*\).*/\1/p')")" \
        "$(readlink -f "$T/home/.local/lib/libkiln.so.$version")" "README's program loads the libkiln.so it was built with"
    has "$(readelf -d "$T/work/$prog" | grep -E 'R(UN)?PATH')" "RUNPATH.*\[$T/home/.local/lib\]" "README's program's RUNPATH (from kiln.pc)"
fi

# ---- find_package(kiln): kiln::kiln and kiln::kiln_static
cmake_args=(-DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_COMPILER="$cc" -DKILN_VERSION="$version")
[ -n "$cuda" ] && cmake_args+=(-DCUDAToolkit_ROOT="$(dirname "$(dirname "$cuda")")")
if run cmake -S "$src/tests/install" -B "$T/cm" "${cmake_args[@]}" && run cmake --build "$T/cm"; then
    same "$("$T/cm/app" 2>&1)" ok "app (find_package, kiln::kiln)"
    has "$(readelf -d "$T/cm/app")" "NEEDED.*libkiln\.so" "kiln::kiln is libkiln.so"
    same "$("$T/cm/app_static" 2>&1)" ok "app (find_package, kiln::kiln_static)"
    if readelf -d "$T/cm/app_static" | grep -q 'libkiln\.so'; then bad "kiln::kiln_static needs libkiln.so"; else ok; fi
fi

# ---- the Debian packages (libkiln0, libkiln-dev, kiln), where dpkg's tools are: CPack on this build
# as it is configured (not reconfigured for /usr as `make deb` does: a test leaves the build alone).
# With KILN_TEST_DEB=1 only: CI's deb step (.ci/run: make deb, then the same check_deb.sh and
# lintian) checks the packages as they ship, and CPack and the check were two thirds of this
# test's CPU in every make check
if [ "${KILN_TEST_DEB:-}" != 1 ]; then
    echo "(the packages: KILN_TEST_DEB=1, or .ci/run's deb step)"
elif command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null; then
    if run cpack -G DEB --config "$build/CPackConfig.cmake" -B "$T/pkg"; then
        run bash "$src/tests/install/check_deb.sh" "$T"/pkg/*.deb
    fi
else
    echo "(no dpkg-deb or dpkg-shlibdeps: the package is not checked)"
fi

finish
