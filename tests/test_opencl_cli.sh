#!/usr/bin/env bash
# The OpenCL backend from the command line, on the first OpenCL device (PoCL in CI): `kiln devices`
# lists it with its platform, driver and compute units (text and JSON); `kiln hash --device
# opencl:0` gives the CPU's digests for files across block boundaries; `kiln mine --header
# --device opencl:0` over a range around block 840000's nonce (the --demo header) finds it;
# malformed opencl specs are bad input (2), a missing device a device failure (3) (Merkle trees,
# PageRank and scrypt on OpenCL: test_opencl_work_cli.sh). Skipped (77) without an OpenCL device unless KILN_REQUIRE_OPENCL is set.
# usage: test_opencl_cli.sh KILN DATA_DIR
set -u
KILN=$1
. "$(dirname "$0")/cli_util.sh"
run() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }

. "$(dirname "$0")/opencl_test_util.sh"

"$KILN" devices >"$TMP/dev"
grep -E "^$OCLDEV"' +.+, [0-9]+ compute units, OpenCL [0-9]+\.[0-9]+, .* GiB, platform .+, driver .+' "$TMP/dev" >/dev/null && ok ||
    bad "kiln devices: $(cat "$TMP/dev")"
"$KILN" devices --json >"$TMP/dev.json"
python3 - "$TMP/dev.json" <<'PY' && ok || bad "kiln devices --json: $(cat "$TMP/dev.json")"
import json, sys
d = [x for x in json.load(open(sys.argv[1])) if x["device"] == "opencl"]
assert d and d[0]["index"] == 0 and d[0]["platform"] and d[0]["driver"] and d[0]["units"] > 0, d
PY

for len in 0 3 55 56 64 111 112 128 135 136 137 1000; do
    head -c "$len" /dev/urandom >"$TMP/m$len"
done
for algo in sha256 sha256d sha3-256 keccak256 shake128 sha512 sha384 sha512-256 sha224 sha1 md5; do
    "$KILN" hash --algo "$algo" --device cpu "$TMP"/m* >"$TMP/cpu" 2>&1
    "$KILN" hash --algo "$algo" --device $OCLDEV "$TMP"/m* >"$TMP/ocl" 2>&1
    cmp -s "$TMP/cpu" "$TMP/ocl" && ok || bad "kiln hash --algo $algo on $OCLDEV: $(diff "$TMP/cpu" "$TMP/ocl" | head -5)"
done

# the library prints nothing: the driver's compiler warnings ("6 warnings generated." from PoCL's
# clang over merkle.cl) must not reach the user's stderr (the program cache is off in the tests, so
# this run builds the program)
printf '%064d\n' 0 1 2 >"$TMP/leaves"
"$KILN" merkle --leaves "$TMP/leaves" --algo poseidon2_goldilocks12 --device $OCLDEV --quiet >"$TMP/out" 2>"$TMP/err" &&
    [ ! -s "$TMP/err" ] && ok || bad "kiln merkle on $OCLDEV wrote to stderr: $(head -3 "$TMP/err")"

# block 840000 (the --demo header, its nonce cleared): 3932395645, searched from 2000 before it
"$KILN" mine --demo --start 3932393645 --count 4000 --device $OCLDEV >"$TMP/mine" 2>&1 &&
    grep -q '^nonce=3932395645 hash=0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5' "$TMP/mine" && ok ||
    bad "kiln mine on $OCLDEV: $(cat "$TMP/mine")"

for spec in "opencl:" "$OCLDEV,," "opencl:x"; do
    [ "$(run "$KILN" hash --algo sha256 --device "$spec" "$TMP/m3")" = 2 ] && grep -q "bad device '$spec'" "$TMP/err" && ok ||
        bad "$spec: $(cat "$TMP/err")"
done
[ "$(run "$KILN" hash --algo sha256 --device opencl:63 "$TMP/m3")" = 3 ] && grep -q "no OpenCL device opencl:63" "$TMP/err" && ok ||
    bad "opencl:63: $(cat "$TMP/err")"

finish
