#!/usr/bin/env bash
# A full disk: a 64 KiB tmpfs (root only; skipped otherwise) that every output below outgrows.
#   pagerank --output / --save-csr: exit 3 naming "No space left on device", the older file under
#     the final name kept as it was, no temporary .kiln- file left, the space given back;
#   merkle --tree, hash, scrypt with standard output redirected into it: exit 3, the same reason.
# (ulimit -f and /dev/full stand in for this in test_cli_output_files.sh and
# test_cli_stdout_full.sh; this is the real thing: ENOSPC from a file system, at fsync or close
# as well as at write.)
# usage: test_faults_full_disk.sh KILN DATA_DIR
set -u
kiln=$1 data=$2
[ "$(id -u)" = 0 ] || { echo "not root: cannot mount a tmpfs; skipped"; exit 77; }
tmp=$(mktemp -d)
disk=$tmp/disk
mkdir "$disk"
if ! mount -t tmpfs -o size=64k kiln-full "$disk" 2>/dev/null; then
    rmdir "$disk"
    rm -rf "$tmp"
    echo "mount -t tmpfs failed (no CAP_SYS_ADMIN?): skipped"
    exit 77
fi
trap 'umount "$disk"; rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
graph=$data/facebook_combined.txt # 4039 nodes: ~100 KB of ranks, ~390 KB of CSR cache
free_kb() { df -k --output=avail "$disk" | tail -n 1 | tr -d ' '; }
empty_kb=$(free_kb)

for opt in --output --save-csr; do
    echo "an older file" >"$disk/out"
    timeout 60 "$kiln" pagerank "$graph" "$opt" "$disk/out" --device cpu >/dev/null 2>"$tmp/err"
    code=$?
    [ "$code" = 3 ] && grep -q 'No space left on device' "$tmp/err" && ok ||
        bad "$opt on a full disk: exit $code, '$(cat "$tmp/err")'"
    [ "$(grep -c . "$tmp/err")" = 1 ] && grep -q '^kiln pagerank: ' "$tmp/err" && ok ||
        bad "$opt on a full disk: one line 'kiln pagerank: ...' expected, got '$(cat "$tmp/err")'"
    [ "$(cat "$disk/out")" = "an older file" ] && ok || bad "$opt on a full disk did not keep the older file"
    [ -z "$(ls -A "$disk" | grep -v '^out$')" ] && ok || bad "$opt on a full disk left $(ls -A "$disk")"
    rm -f "$disk/out"
    [ "$(free_kb)" = "$empty_kb" ] && ok || bad "$opt: $(free_kb) KiB free after, $empty_kb before"
done

# no older file: nothing at all under the final name
timeout 60 "$kiln" pagerank "$graph" --output "$disk/new" --device cpu >/dev/null 2>"$tmp/err"
code=$?
[ "$code" = 3 ] && [ -z "$(ls -A "$disk")" ] && ok || bad "--output to a new file: exit $code, left $(ls -A "$disk")"

# standard output redirected into the full disk
grep -v '^#' "$data/block413567.txids.txt" | awk '{print $2}' >"$tmp/leaves" # 1557 leaves: ~220 KB of tree
printf 'abc' >"$tmp/abc"
stdout_full() { # CMD...: stdout into a file on the full disk
    timeout 60 "$kiln" "$@" >"$disk/stdout" 2>"$tmp/err"
    local code=$?
    [ "$code" = 3 ] && grep -q 'No space left on device' "$tmp/err" && ok ||
        bad "kiln ${*:1:6} ... > full disk: exit $code, '$(cat "$tmp/err")'"
    rm -f "$disk/stdout"
}
stdout_full merkle --algo sha256d --leaves "$tmp/leaves" --tree --device cpu
stdout_full hash --algo shake256 --length 40000 "$tmp/abc" # one 80,000-character line
args=()
for i in $(seq 1000); do args+=("$tmp/abc"); done # 1000 lines of ~80 bytes
stdout_full hash --algo sha256 "${args[@]}"
stdout_full scrypt --password pw --salt s -N 16 -r 1 -p 1 --length 40000

# the disk is not the problem once there is room: the same run into a fresh file fits when small
timeout 60 "$kiln" hash --algo sha256 "$tmp/abc" >"$disk/small" 2>"$tmp/err" &&
    grep -q '^ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ' "$disk/small" && ok ||
    bad "a small output on the same disk: '$(cat "$tmp/err")'"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
