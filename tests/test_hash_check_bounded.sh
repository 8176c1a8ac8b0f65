#!/usr/bin/env bash
# kiln hash --check reads its list line by line in bounded memory: a 1 GiB stream without a
# newline is checked under a 64 MiB address-space limit (or a peak resident size), a line longer than the limit is one
# improperly formatted line and the next line is still checked, /dev/urandom as a list keeps a
# small resident size. And the exit-code rule: a FILE or list named on the command line that
# cannot be read is bad input (exit 2, "kiln hash: NAME: reason", the others still hashed); a file
# named inside a list that cannot be read is a failed check (exit 1), as with sha256sum -c.
# Usage: test_hash_check_bounded.sh KILN DATA_DIR
set -u
. "$(dirname "$0")/hash_test_util.sh"
cd "$T" || exit 1
printf abc > abc
S=ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad # FIPS 180-4 SHA-256 of "abc"

# --- a line-less 1 GiB stream: read through, never held (a whole-list reader needs 1 GiB). Under a
# 64 MiB address-space limit; a sanitized kiln reserves terabytes of shadow and cannot run under
# one, so its peak resident size is measured instead.
peak() { # FILE CMD...: runs CMD, writes its peak resident size (kB) to FILE, keeps its exit code
    python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
open(sys.argv[1], "w").write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)' "$@"
}
if (ulimit -v 65536 && "$KILN" --help > /dev/null 2>&1; exit $?) 2> /dev/null; then
    head -c 1G /dev/zero | (ulimit -v 65536 && exec timeout 60 "$KILN" hash --algo sha256 --check -) > out 2> err
    expect_eq "$?" 2 "1 GiB without a newline under ulimit -v 64 MiB"
elif command -v python3 > /dev/null; then
    head -c 1G /dev/zero | peak rss timeout 60 "$KILN" hash --algo sha256 --check - > out 2> err
    expect_eq "$?" 2 "1 GiB without a newline"
    [ "$(cat rss)" -lt 131072 ] && ok || bad "1 GiB without a newline: peak resident size $(cat rss) kB"
else
    echo "no way to bound or measure memory here: the 1 GiB stream is only read" >&2
    head -c 1G /dev/zero | timeout 60 "$KILN" hash --algo sha256 --check - > out 2> err
    expect_eq "$?" 2 "1 GiB without a newline"
fi
expect_eq "$(cat err)" "kiln hash: -: no properly formatted sha256 checksum lines found" "its one message"

# --- an overlong line costs one warning; the lines after it are still checked
{ head -c 3000000 /dev/zero | tr '\0' a; printf '\n%s  abc\n' "$S"; } > long
out=$(timeout 20 "$KILN" hash --algo sha256 --check long 2> err)
expect_eq "$?$out" "0abc: OK" "line after a 3 MB line"
expect_eq "$(cat err)" "kiln hash: WARNING: 1 line is improperly formatted" "the long line's warning"
# the longest digest kiln writes (SHAKE, --length 1 MiB: a 2 MiB line) is not too long
"$KILN" hash --algo shake256 --length 1048576 abc > shake
expect_eq "$("$KILN" hash --algo shake256 --check shake 2>&1)" "abc: OK" "a 2 MiB SHAKE line"

# --- /dev/urandom as the list: bounded resident memory while it runs, Ctrl-C ends it
if [ -r /dev/urandom ] && [ -r /proc/self/status ]; then
    "$KILN" hash --algo sha256 --check /dev/urandom > /dev/null 2> err &
    p=$!
    sleep 1
    hwm=$(awk '/^VmHWM:/ {print $2}' /proc/$p/status 2> /dev/null)
    kill -INT $p
    for i in $(seq 100); do kill -0 $p 2> /dev/null || break; sleep 0.05; done
    kill -KILL $p 2> /dev/null
    wait $p
    expect_eq "$?" 130 "Ctrl-C on --check /dev/urandom"
    [ -n "$hwm" ] && [ "$hwm" -lt 65536 ] && ok || bad "resident memory reading /dev/urandom: ${hwm:-?} kB"
fi

# --- inputs named on the command line: bad input, exit 2, the rest still hashed
mkdir adir
out=$("$KILN" hash --algo sha256 abc missing adir 2> err)
expect_eq "$?" 2 "unreadable FILE arguments exit"
expect_eq "$out" "$S  abc" "the readable file still hashed"
expect_eq "$(cat err)" "$(printf 'kiln hash: missing: No such file or directory\nkiln hash: adir: Is a directory')" \
    "each unreadable FILE named with its reason"
"$KILN" hash --algo sha256 --check adir > out 2> err
expect_eq "$?" 2 "--check DIR exit"
expect_eq "$(cat err)" "kiln hash: adir: Is a directory" "--check DIR message"
"$KILN" hash --algo sha256 --check nolist > out 2> err
expect_eq "$?" 2 "missing list exit"
expect_eq "$(cat err)" "kiln hash: nolist: No such file or directory" "missing list message"

# --- files named inside a list: a failed check, exit 1, as sha256sum -c
printf '%s  abc\n%s  gone\n%s  adir\n' "$S" "$S" "$S" > sums
out=$("$KILN" hash --algo sha256 --check sums 2> err)
expect_eq "$?" 1 "unreadable listed files exit"
expect_eq "$out" "$(printf 'abc: OK\ngone: FAILED open or read\nadir: FAILED open or read')" "their verdicts"
grep -q "^kiln hash: gone: No such file or directory$" err && ok || bad "listed missing file: $(cat err)"
grep -q "^kiln hash: adir: Is a directory$" err && ok || bad "listed directory: $(cat err)"
grep -q "WARNING: 2 listed files could not be read" err && ok || bad "summary: $(cat err)"

finish
