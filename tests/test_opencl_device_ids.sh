#!/usr/bin/env bash
# Devices are named as a spec selects them wherever kiln names one (kiln_device_spec, issue 40.3):
# the mining statistics of an OpenCL set call its devices opencl:N#K (they said cuda:N#K), a
# missing OpenCL device is named opencl:N, and `kiln tune` on a host without a CUDA GPU says that
# auto found none rather than naming CUDA for an OpenCL run. Skipped (77) without an OpenCL
# device unless KILN_REQUIRE_OPENCL is set.
# Usage: test_opencl_device_ids.sh KILN DATA_DIR
set -u
KILN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$(dirname "$0")/opencl_test_util.sh"
command -v python3 >/dev/null || { echo "python3 not found: skipping"; exit 77; }
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
n=${OCLDEV#opencl:}

# a set of the device twice: two logical devices, ids opencl:N#0 and opencl:N#1
"$KILN" mine --device "$OCLDEV,$n" --demo --count 65536 --json >"$TMP/out" 2>"$TMP/err"
python3 - "$TMP/out" "$n" <<'PY' && ok || bad "mine --json on $OCLDEV,$n: $(cat "$TMP/out" "$TMP/err")"
import json, sys
d = json.load(open(sys.argv[1]))
ids = [x["id"] for x in d["devices"]]
want = ["opencl:%s#0" % sys.argv[2], "opencl:%s#1" % sys.argv[2]]
assert ids == want, (ids, want)
PY
"$KILN" mine --device "$OCLDEV,$n" --demo --count 65536 >"$TMP/out" 2>"$TMP/err"
grep -q "^device=opencl:$n#1 " "$TMP/out" && ! grep -q "cuda" "$TMP/out" && ok ||
    bad "mine on $OCLDEV,$n: $(cat "$TMP/out" "$TMP/err")"

# an absent OpenCL device, named as its spec
"$KILN" mine --device opencl:99 --demo >"$TMP/out" 2>"$TMP/err"
[ $? -eq 3 ] && grep -q "^kiln mine: no OpenCL device opencl:99 ([0-9]* present)$" "$TMP/err" && ok ||
    bad "mine on opencl:99: $(cat "$TMP/err")"

# tune with auto on a host without a CUDA GPU: auto found none (OpenCL is only used when asked for)
if ! "$KILN" devices | grep -q '^cuda:0'; then
    "$KILN" tune --algo sha256d >"$TMP/out" 2>"$TMP/err"
    [ $? -eq 3 ] && grep -q "^kiln tune: no GPU to tune: auto takes a CUDA GPU and there is none (an OpenCL device: --device opencl:N)$" "$TMP/err" && ok ||
        bad "tune with auto: $(cat "$TMP/err")"
fi
"$KILN" tune --algo sha256d --device cpu >"$TMP/out" 2>"$TMP/err"
[ $? -eq 2 ] && grep -q "^kiln tune: tuning applies to GPU launch shapes; use --device cuda or opencl:N$" "$TMP/err" && ok ||
    bad "tune on the cpu: $(cat "$TMP/err")"

echo "test_opencl_device_ids: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
