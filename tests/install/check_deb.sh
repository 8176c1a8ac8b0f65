#!/usr/bin/env bash
# Checks kiln's Debian packages (from `make deb`, or CPack in tests/test_install.sh) and prints
# their Depends, Installed-Size and files. The three (cmake/KilnPackage.cmake): libkiln0 holds
# libkiln.so.MAJOR* only, with its shlibs entry and libc-bin's ldconfig trigger (no maintainer
# scripts); libkiln-dev the header, libkiln.a, the libkiln.so link, kiln.pc and the CMake package,
# and depends on libkiln0 of its own version; kiln bin/kiln, its gzipped manual pages and the
# completions, and depends on libkiln0 of its own version. Each has /usr/share/doc/<package>/
# copyright and changelog.Debian.gz. Every library the binaries load (readelf's NEEDED) that their
# package does not hold is covered by its Depends, naming the Debian package that holds it
# (dpkg -S), and no CUDA package is named; kiln.pc names no absolute path but its prefix, /usr;
# binaries are stripped; the packaged kiln runs.
# Usage: check_deb.sh DEB...   (libkiln0, libkiln-dev and kiln, in any order)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../cli_util.sh"
T=$TMP
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
has() { if printf '%s\n' "$1" | grep -qE -- "$2"; then ok; else bad "$3: no /$2/ in: $1"; fi; }
re() { local s=${1//./\\.}; printf '%s' "${s//+/\\+}"; } # a package name or version as an ERE

declare -A deb=()
for f in "$@"; do
    p=$(dpkg-deb --field "$f" Package) || exit 2
    deb[$p]=$f
done
lib_pkg=$(printf '%s\n' "${!deb[@]}" | grep -E '^libkiln[0-9]+$')
for p in "$lib_pkg" libkiln-dev kiln; do
    [ -n "$p" ] && [ -n "${deb[$p]:-}" ] && continue
    { echo "FAIL: want libkiln<MAJOR>, libkiln-dev and kiln; got: ${!deb[*]}" >&2; exit 2; }
done
field() { dpkg-deb --field "${deb[$1]}" "$2"; }
version=$(field kiln Version)
upstream=${version%-*}
major=${upstream%%.*}
same "$lib_pkg" "libkiln$major" "the runtime package's name (libkiln.so.$major)"
arch=$(dpkg --print-architecture)

for p in "$lib_pkg" libkiln-dev kiln; do
    f=${deb[$p]}
    echo "$p $(field "$p" Version): Installed-Size: $(field "$p" Installed-Size) KiB; Depends: $(field "$p" Depends)"
    [ -n "$(field "$p" Suggests)" ] && echo "  Suggests: $(field "$p" Suggests)"
    dpkg-deb --contents "$f" | awk '$6 !~ /\/$/ { print "  " $6, $7, $8 }'
    same "$(field "$p" Version)" "$version" "$p's version"
    same "$(basename "$f")" "${p}_${version}_$arch.deb" "$p's file name"
    dpkg-deb -x "$f" "$T/$p"
    for d in copyright changelog.Debian.gz; do
        if [ -f "$T/$p/usr/share/doc/$p/$d" ]; then ok; else bad "$p: no /usr/share/doc/$p/$d"; fi
    done
    # gzip -9n: no name and no time stamp in the header (bytes 4-7 zero)
    for gz in $(cd "$T/$p" && find usr -name '*.gz'); do
        same "$(od -An -tx1 -j3 -N5 "$T/$p/$gz" | tr -d ' ')" 0000000000 "$p: $gz written by gzip -n"
    done
    unstripped=$(cd "$T/$p" && find usr -type f -exec file {} + | grep 'ELF.*not stripped')
    same "$unstripped" "" "$p: unstripped binaries"
done
L=$(cd "$T/$lib_pkg" && find usr -name "libkiln.so.$major.*" | head -1)
[ -n "$L" ] || { echo "FAIL: no libkiln.so.$major.* in $lib_pkg" >&2; exit 1; }
libdir=${L%/*}

# ---- which package holds what
in_pkg() { # PACKAGE FILE...: each FILE is in PACKAGE's tree and in neither other one
    local p=$1 q f; shift
    for f; do
        if [ -e "$T/$p/$f" ] || [ -L "$T/$p/$f" ]; then ok; else bad "not in $p: $f"; fi
        for q in "$lib_pkg" libkiln-dev kiln; do
            [ "$q" = "$p" ] && continue
            if [ -e "$T/$q/$f" ] || [ -L "$T/$q/$f" ]; then bad "$f in $q too"; fi
        done
    done
}
in_pkg "$lib_pkg" "$libdir/libkiln.so.$major" "$libdir/libkiln.so.$upstream"
in_pkg libkiln-dev usr/include/kiln.h "$libdir/libkiln.a" "$libdir/libkiln.so" "$libdir/pkgconfig/kiln.pc" \
    "$libdir/cmake/kiln/kilnConfig.cmake" "$libdir/cmake/kiln/kilnConfigVersion.cmake"
in_pkg kiln usr/bin/kiln usr/share/man/man1/kiln.1.gz usr/share/man/man1/kiln-hash.1.gz \
    usr/share/bash-completion/completions/kiln
same "$(readlink "$T/libkiln-dev/$libdir/libkiln.so")" "libkiln.so.$major" "libkiln.so link"
same "$(cd "$T/$lib_pkg" && find usr -type f -o -type l | grep -v '^usr/share/\(doc\|lintian\)/' | sort)" \
    "$(printf '%s\n' "$libdir/libkiln.so.$major" "$libdir/libkiln.so.$upstream" | sort)" "$lib_pkg holds the library only"
if (cd "$T/kiln" && find usr/share/man -name '*.1' | grep -q .); then bad "kiln: uncompressed manual pages"; else ok; fi
same "$(zcat "$T/kiln/usr/share/man/man1/kiln-hash.1.gz" | sed -n '/^\.TH/{s/ .*//;p;q}')" .TH "kiln-hash.1.gz is a manual page"

# ---- control files: shlibs and the ldconfig trigger in the runtime package only
same "$(dpkg-deb --info "${deb[$lib_pkg]}" shlibs)" "libkiln $major $lib_pkg (>= $version)" "shlibs"
has "$(dpkg-deb --info "${deb[$lib_pkg]}" triggers 2>/dev/null)" "^activate-noawait ldconfig$" "$lib_pkg activates the ldconfig trigger"
for p in "$lib_pkg" libkiln-dev kiln; do
    for s in preinst postinst prerm postrm; do
        dpkg-deb --info "${deb[$p]}" "$s" >/dev/null 2>&1 && bad "$p has a $s script"
    done
    [ "$p" = "$lib_pkg" ] && continue
    dpkg-deb --info "${deb[$p]}" shlibs >/dev/null 2>&1 && bad "$p has a shlibs file"
    dpkg-deb --info "${deb[$p]}" triggers >/dev/null 2>&1 && bad "$p has a triggers file"
done

# ---- Depends: the runtime package of the same version, and what the binaries load
for p in libkiln-dev kiln; do
    has "$(field "$p" Depends)" "(^|, )$lib_pkg \(= $(re "$version")\)(,|$)" "$p depends on $lib_pkg of its version"
done
for p in "$lib_pkg" kiln; do
    depends=$(field "$p" Depends)
    bins=$(cd "$T/$p" && find usr -type f -exec file {} + | sed -n 's/^\([^:]*\):.*ELF.*dynamically linked.*/\1/p')
    # shellcheck disable=SC2086 # one word per binary
    needed=$(cd "$T/$p" && readelf -d $bins | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
    for so in $needed; do
        [ -e "$T/$p/$libdir/$so" ] && continue # in the package
        if [ -e "$T/$lib_pkg/$libdir/$so" ]; then
            has "$depends" "(^|, )$lib_pkg " "$p's Depends (for $so)"
            continue
        fi
        owners=$(dpkg -S "*/$so" 2>/dev/null | awk -v tail="/$so" 'substr($0, length($0) - length(tail) + 1) == tail')
        pkg=$( (grep -E "^[^ :]+:$arch: " || grep -E '^[^ :]+: ') <<<"$owners" | head -1 | sed 's/:.*//')
        if [ -z "$pkg" ]; then bad "$so comes from no Debian package"; continue; fi
        has "$depends" "(^|, )$(re "$pkg")( |,|$)" "$p's Depends (for $so)"
    done
    if printf '%s' "$depends" | grep -qiE 'cuda|nvidia'; then bad "$p's Depends names a CUDA package: $depends"; else ok; fi
    # one clause for the OpenCL ICD loader, not one per OpenCL version (cmake/deb/opencl_depends.cmake)
    opencl=$(printf '%s' "$depends" | tr ',' '\n' | grep -c 'opencl')
    if [ "$opencl" -le 1 ]; then ok; else bad "$p's Depends has $opencl OpenCL clauses: $depends"; fi
done
same "$(field libkiln-dev Depends)" "$lib_pkg (= $version)" "libkiln-dev's Depends"

# ---- kiln.pc: no path of the build machine
pc=$T/libkiln-dev/$libdir/pkgconfig/kiln.pc
same "$(sed -n 's/^prefix=//p' "$pc")" /usr "kiln.pc's prefix"
paths=$(grep -v '^prefix=' "$pc" | grep -oE '(^|[ =]|-L|-I)/[^ ]*' || true)
same "$paths" "" "absolute paths in kiln.pc other than its prefix"
has "$(sed -n 's/^Libs.private: *//p' "$pc")" '^(-l[^ /]+ ?)*$' "kiln.pc's Libs.private: -l flags only"

# ---- the packaged kiln, against the packaged library. FIPS 180-2 B.1
same "$(printf abc | LD_LIBRARY_PATH=$T/$lib_pkg/$libdir "$T/kiln/usr/bin/kiln" hash --algo sha256 -)" \
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -" "packaged kiln hash"

# ---- docs/PACKAGING.md's table of Depends, as the packages have them: every clause a package has
# is in its row (versions left out), and every clause of the row that no build part conditions
# ("[zlib]") is in the package
doc=$(cd "$(dirname "$0")/../.." && pwd)/docs/PACKAGING.md
# a Depends field, or a table cell, as one clause a line: versions and parts left out, and the
# 64-bit time_t transition's package names (Debian 13, Ubuntu 24.04: libssl3t64 for Debian 12's
# libssl3) read as the table writes them, so a build on such a host is checked too
clauses() {
    sed -e 's/\\|/|/g' -e 's/([^)]*)//g' | tr ',' '\n' | sed -e 's/ *| */ | /g' -e 's/^ *//' -e 's/ *$//' |
        sed -E 's/([0-9])t64( |$)/\1\2/g' | grep -v '^$' | sort -u
}
for p in "$lib_pkg" libkiln-dev kiln; do
    row=$(awk -F' [|] ' -v p="| \`$p\`" '/<!-- debian packages/ { f = 1 } /<!-- end debian packages/ { f = 0 }
                                          f && index($0, p) == 1 { print $NF }' "$doc" | sed 's/ *|$//')
    if [ -z "$row" ]; then bad "no row for $p in the table of $doc"; continue; fi
    printf '%s\n' "$(field "$p" Depends)" | clauses >"$T/real"
    printf '%s\n' "$row" | sed 's/ *\[[^]]*\]//g' | clauses >"$T/doc"
    printf '%s\n' "$row" | tr ',' '\n' | grep -v '\[' | clauses >"$T/doc_always"
    missing=$(comm -23 "$T/real" "$T/doc" | paste -sd ';')
    same "$missing" "" "$p's Depends that $doc's table leaves out"
    absent=$(comm -13 "$T/real" "$T/doc_always" | paste -sd ';')
    same "$absent" "" "$p's Depends in $doc's table (with no [part]) that the package lacks"
done

finish "check_deb"
