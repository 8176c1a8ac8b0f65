#!/usr/bin/env bash
# Output that cannot be written is a failure (as sha256sum has it): every command whose standard
# output is /dev/full (a device whose every write fails with ENOSPC) exits 3 with one line on
# stderr naming the system's reason, whatever the command itself concluded.
# usage: test_cli_stdout_full.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
[ -w /dev/full ] || { echo "no /dev/full: skipped"; exit 77; }
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'abc' >"$tmp/abc"
# FIPS 180-4's "abc" example, as sha256sum prints it
printf 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  %s\n' "$tmp/abc" >"$tmp/sums"
grep -v "^#" "$data/block413567.txids.txt" | awk '{print $3}' >"$tmp/leaves"

full() { # CMD...: run with stdout on /dev/full
    "$kiln" "$@" >/dev/full 2>"$tmp/err"
    local got=$? lines
    lines=$(grep -c . "$tmp/err" | tr -d ' ')
    if [ "$got" = 3 ] && grep -q 'No space left on device' "$tmp/err"; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: exit $got, stderr '$(cat "$tmp/err")': kiln $*" >&2; fi
    # the one line about the write; mine also says what it mines, pagerank its summary
    if [ "$(grep -c 'write error\|No space' "$tmp/err")" = 1 ]; then pass=$((pass + 1))
    else fail=$((fail + 1)); echo "FAIL: the write error should be said once ($lines lines): kiln $*" >&2; fi
}

full --help
full hash --help
full devices
full hash --algo sha256 "$tmp/abc"
full hash --algo sha256 --check "$tmp/sums"
full scrypt --password pw --salt s -N 16 -r 1 -p 1
full merkle --algo sha256d --leaves "$tmp/leaves"
full merkle --algo sha256d --leaves "$tmp/leaves" --tree
full merkle --block "$data/block413567.raw"
full mine --demo --device cpu
full mine --demo --device cpu --json
full pagerank "$data/facebook_combined.txt" --top 3 --device cpu
full bench --algo sha256 --device cpu --seconds 0.2
full selftest --device cpu
# and a command that failed on its own still says that its output was lost
full hash --algo sha256 "$tmp/abc" "$tmp/missing"

# with a working stdout nothing changes
out=$("$kiln" hash --algo sha256 "$tmp/abc")
if [ "$?" = 0 ] && [ "$out" = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  $tmp/abc" ]; then
    pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: plain hash: $out" >&2; fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
