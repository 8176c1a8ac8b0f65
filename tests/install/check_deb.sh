#!/usr/bin/env bash
# Checks a kiln .deb (from `make deb`, or CPack in tests/test_install.sh) and prints its Depends
# and files: the files a user links against are there; libkiln.so.MAJOR has its shlibs entry
# and ldconfig runs on install; every library its programs and libkiln.so load (readelf's NEEDED)
# that the package does not hold itself is covered by Depends, naming the Debian package that
# holds it (dpkg -S), and no CUDA package is named; the packaged kiln runs.
# Usage: check_deb.sh KILN_DEB
set -u
deb=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
same() { if [ "$1" = "$2" ]; then ok; else bad "$3: got [$1] want [$2]"; fi; }
has() { if printf '%s\n' "$1" | grep -qE -- "$2"; then ok; else bad "$3: no /$2/ in: $1"; fi; }

info=$(dpkg-deb --info "$deb") || exit 2
field() { dpkg-deb --field "$deb" "$1"; }
depends=$(field Depends)
version=$(field Version)
echo "$(basename "$deb"): Depends: $depends"
[ -n "$(field Suggests)" ] && echo "$(basename "$deb"): Suggests: $(field Suggests)"
dpkg-deb --contents "$deb" | awk '$6 !~ /\/$/ { print "  " $6, $7, $8 }'

same "$(field Package)" kiln "Package"
dpkg-deb -x "$deb" "$T/x"
lib=$(cd "$T/x" && find usr -name 'libkiln.so.*.*' | head -1)
[ -n "$lib" ] || { echo "FAIL: no libkiln.so.*.* in $deb" >&2; exit 1; }
libdir=${lib%/*}
major=${version%%.*}
for f in usr/bin/kiln usr/include/kiln.h "$libdir/libkiln.so.$major" "$libdir/libkiln.a" \
         "$libdir/pkgconfig/kiln.pc" "$libdir/cmake/kiln/kilnConfig.cmake" "$libdir/cmake/kiln/kilnConfigVersion.cmake"; do
    if [ -e "$T/x/$f" ]; then ok; else bad "not in the package: $f"; fi
done
same "$(dpkg-deb --info "$deb" shlibs)" "libkiln $major kiln (>= $version)" "shlibs"
# older CPack runs ldconfig from postinst/postrm, newer CPack through a dpkg trigger
has "$(dpkg-deb --info "$deb" postinst 2>/dev/null; dpkg-deb --info "$deb" triggers 2>/dev/null)" "ldconfig" \
    "ldconfig on install (postinst or triggers)"
same "$(sed -n 's/^prefix=//p' "$T/x/$libdir/pkgconfig/kiln.pc")" /usr "kiln.pc's prefix"

# Depends against what the binaries load
arch=$(dpkg --print-architecture)
needed=$(readelf -d "$T/x/usr/bin/kiln" "$T/x/$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u)
for so in $needed; do
    [ -e "$T/x/$libdir/$so" ] && continue # in the package
    owners=$(dpkg -S "*/$so" 2>/dev/null | awk -v tail="/$so" 'substr($0, length($0) - length(tail) + 1) == tail')
    pkg=$( (grep -E "^[^ :]+:$arch: " || grep -E '^[^ :]+: ') <<<"$owners" | head -1 | sed 's/:.*//')
    if [ -z "$pkg" ]; then bad "$so comes from no Debian package"; continue; fi
    has "$depends" "(^|, )$(sed 's/[.+]/\\&/g' <<<"$pkg")( |,|$)" "Depends (for $so)"
done
if printf '%s' "$depends" | grep -qiE 'cuda|nvidia'; then bad "Depends names a CUDA package: $depends"; else ok; fi

# FIPS 180-2 B.1
same "$(printf abc | LD_LIBRARY_PATH=$T/x/$libdir "$T/x/usr/bin/kiln" hash --algo sha256 -)" \
    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  -" "packaged kiln hash"

echo "check_deb: $pass passed, $fail failed"
[ "$fail" = 0 ]
