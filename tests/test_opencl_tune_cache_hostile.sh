#!/usr/bin/env bash
# A tune cache that is not a small regular file (issue 36 item 10): with $XDG_CACHE_HOME/kiln/tune.txt
# a link to /dev/zero, `kiln bench --device opencl:0` and `kiln mine --demo --device opencl:0` read
# it forever (and no signal ended them); a FIFO with no writer made them wait forever. Now each is
# ignored with one warning and the command runs as without a cache; a cache larger than 1 MiB too.
# The OpenCL program cache is read as carefully: FIFOs and /dev/zero there are passed over.
# Runs on an OpenCL device (PoCL in CI): the cache is read for GPU devices only. Skipped (77)
# without one unless KILN_REQUIRE_OPENCL is set.
# usage: test_opencl_tune_cache_hostile.sh KILN [DATA_DIR]
set -u
KILN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# PoCL's own kernel cache stays where it was (its default is under XDG_CACHE_HOME, moved here)
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pocl}
export XDG_CACHE_HOME=$TMP # the tune cache
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
. "$(dirname "$0")/opencl_test_util.sh"
export KILN_OPENCL_CACHE=$TMP/programs # kiln's program cache, on for this test (the util turns it off)
command -v python3 >/dev/null || { echo "python3 not found: skipping"; exit 77; }
mkdir -p "$TMP/kiln"
cache=$TMP/kiln/tune.txt
bench() { "$KILN" bench --algo sha256d --device "$OCLDEV" --seconds 0.05 --json; }

# no cache: builds the programs (minutes on a busy machine the first time), so that the cases below
# are timed without the builds
rm -f "$cache"
timeout -s KILL 900 "$KILN" bench --algo sha256d --device "$OCLDEV" --seconds 0.05 >/dev/null 2>"$TMP/err" ||
    bad "bench without a cache: $(cat "$TMP/err")"
timeout -s KILL 900 "$KILN" mine --demo --device "$OCLDEV" --count 1000 >/dev/null 2>"$TMP/err"
[ $? = 1 ] || bad "mine without a cache: $(cat "$TMP/err")"

# CASE WHAT: the cache set up by CASE's caller; bench and mine end within the limit, exit as
# without a cache, and say once on stderr why the cache was ignored
hostile() {
    local what=$1 why=$2
    timeout -s KILL 120 "$KILN" bench --algo sha256d --device "$OCLDEV" --seconds 0.05 --json >"$TMP/out" 2>"$TMP/err"
    local code=$?
    [ "$code" = 0 ] && grep -q '"rate"' "$TMP/out" && [ "$(grep -c 'tune cache' "$TMP/err")" = 1 ] &&
        grep -qF "tune cache $cache ignored: $why" "$TMP/err" && ok ||
        bad "bench with tune.txt $what: exit $code (137: it never ended), $(cat "$TMP/err")"
    timeout -s KILL 120 "$KILN" mine --demo --device "$OCLDEV" --count 100000 >"$TMP/out" 2>"$TMP/err"
    code=$?
    [ "$code" = 1 ] && grep -q '^hashes=100000 ' "$TMP/out" && grep -qF "tune cache $cache ignored: $why" "$TMP/err" && ok ||
        bad "mine --demo with tune.txt $what: exit $code (137: it never ended), $(cat "$TMP/out" "$TMP/err")"
}
ln -s /dev/zero "$cache"
hostile "-> /dev/zero" "not a regular file"
rm -f "$cache"
mkfifo "$cache"
hostile "a FIFO without a writer" "not a regular file"
rm -f "$cache"
# larger than 1 MiB, with a launch shape at its end that would be taken were it read
model=$("$KILN" devices --json | python3 -c 'import json, sys
print([d["name"] for d in json.load(sys.stdin) if d["device"] == "opencl" and d["index"] == int(sys.argv[1])][0])' "${OCLDEV#opencl:}")
{
    for _ in $(seq 20000); do echo "# a comment line of sixty-odd bytes, to make the file large"; done
    printf 'sha256d\topencl:%s\t64\t4\t1000\n' "$model"
} >"$cache"
shape=$(bench 2>"$TMP/err" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["threads_per_block"], d["items_per_thread"])')
[ "$shape" = "0 0" ] && grep -qF "tune cache $cache ignored: larger than 1 MiB" "$TMP/err" && ok ||
    bad "a cache over 1 MiB: shape '$shape' (want 0 0: ignored), $(cat "$TMP/err")"
# the same entry in a cache of one line is taken (the test's own check that the entry is right)
printf 'sha256d\topencl:%s\t64\t4\t1000\n' "$model" >"$cache"
shape=$(bench 2>"$TMP/err" | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["threads_per_block"], d["items_per_thread"])')
[ "$shape" = "64 4" ] && [ ! -s "$TMP/err" ] && ok || bad "a cache of one entry: shape '$shape' (want 64 4), $(cat "$TMP/err")"

# the program cache (KILN_OPENCL_CACHE, above) is read the same way: its binaries
# replaced by FIFOs without a writer (an fopen there waited for ever) and a link to /dev/zero are
# passed over, the programs built anew and stored over them as regular files
progs=$(ls "$KILN_OPENCL_CACHE"/*.bin 2>/dev/null)
[ -n "$progs" ] && ok || bad "no program binaries in the cache $KILN_OPENCL_CACHE"
first=1
for f in $progs; do
    rm -f "$f"
    if [ $first = 1 ]; then ln -s /dev/zero "$f"; else mkfifo "$f"; fi
    first=0
done
rm -f "$cache"
timeout -s KILL 600 "$KILN" bench --algo sha256d --device "$OCLDEV" --seconds 0.05 --json >"$TMP/out" 2>"$TMP/err"
code=$?
[ "$code" = 0 ] && grep -q '"rate"' "$TMP/out" && ok ||
    bad "bench with FIFOs and /dev/zero as program binaries: exit $code (137: it never ended), $(cat "$TMP/err")"
for f in $progs; do [ -f "$f" ] && [ ! -L "$f" ] && [ ! -p "$f" ] || { bad "$f was not stored anew as a file"; break; }; done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
