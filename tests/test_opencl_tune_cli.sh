#!/usr/bin/env bash
# `kiln tune` on an OpenCL device (PoCL in CI): the sha256d sweep prints its table (six work-group
# sizes by five nonces per work-item, a rate in each cell) and its best shape, and caches it as an
# OpenCL entry ("opencl:<model>") beside the CUDA entries already in the file, which stay as they
# were, one of them under the same model name; `kiln bench` on the device then runs the OpenCL
# entry's shape, never the CUDA one's. A set of the device twice sweeps once, under the model. A
# missing device is a device failure (3), the CPU a usage error (2). Skipped (77) without an OpenCL
# device unless KILN_REQUIRE_OPENCL is set.
# usage: test_opencl_tune_cli.sh KILN [DATA_DIR]
set -u
KILN=$1
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# PoCL compiles a kernel again for each work-group size the sweep tries (a minute and more on 2
# cores); its own cache stays where it was (its default is under XDG_CACHE_HOME, moved here)
export POCL_CACHE_DIR=${POCL_CACHE_DIR:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/pocl}
export XDG_CACHE_HOME=$TMP # the tune cache; opencl_test_util.sh gives the programs their own
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
run() { "$@" >"$TMP/out" 2>"$TMP/err"; echo $?; }

. "$(dirname "$0")/opencl_test_util.sh"
command -v python3 >/dev/null || { echo "python3 not found: skipping"; exit 77; }
model=$("$KILN" devices --json | python3 -c 'import json, sys
print([d["name"] for d in json.load(sys.stdin) if d["device"] == "opencl" and d["index"] == int(sys.argv[1])][0])' "${OCLDEV#opencl:}")
cache=$TMP/kiln/tune.txt
mkdir -p "$TMP/kiln"
# CUDA entries as a kiln before OpenCL tuning wrote them: one under the OpenCL device's own name
cuda_lines=$(printf 'sha256d\t%s\t128\t2\t5\nmerkle-sha256d\tNVIDIA H200\t256\t4\t3160000000\n' "$model")
printf '%s\n' "$cuda_lines" >"$cache"
bench_shape() { # the launch `kiln bench` ran on the device, "TPB NPT"
    "$KILN" bench --algo sha256d --device "$OCLDEV" --seconds 0.05 --json |
        python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["threads_per_block"], d["items_per_thread"])'
}

# a CUDA entry of the same model is not an OpenCL one: the default shape (0 0)
[ "$(bench_shape 2>"$TMP/err")" = "0 0" ] && ok || bad "bench before tuning ran a CUDA entry: $(cat "$TMP/err")"

rc=$(run "$KILN" tune --algo sha256d --device "$OCLDEV" --seconds 0.05 --quiet)
[ "$rc" = 0 ] && ok || bad "tune on $OCLDEV: exit $rc: $(cat "$TMP/err")"
python3 - "$TMP/out" "$model" "$cache" <<'PY' && ok || bad "tune's table: $(cat "$TMP/out")"
import re, sys
out, model, cache = open(sys.argv[1]).read().splitlines(), sys.argv[2], sys.argv[3]
assert out[0] == f"tuning sha256d on {model} (rate per threads-per-block x nonces-per-thread)", out[0]
assert out[1].split() == ["tpb\\npt", "1", "2", "4", "8", "16"], out[1]
rate = r"[0-9.]+ [kMGT]?H/s"
for line, tpb in zip(out[2:8], [32, 64, 128, 256, 512, 1024]):
    assert re.fullmatch(rf" *{tpb}( +{rate}){{5}}", line), line
m = re.fullmatch(rf"best: (\d+) threads per block, (\d+) nonces per thread: {rate}", out[8])
assert m and int(m[1]) in (32, 64, 128, 256, 512, 1024) and int(m[2]) in (1, 2, 4, 8, 16), out[8]
assert out[9] == f"cached in {cache}" and len(out) == 10, out[9:]
PY
# the cache: the CUDA lines as they were, and one OpenCL line with the best shape
python3 - "$TMP/out" "$model" "$cache" "$cuda_lines" <<'PY' && ok || bad "the cache: $(cat "$cache")"
import re, sys
out, model, cache, cuda = open(sys.argv[1]).read(), sys.argv[2], open(sys.argv[3]).read().splitlines(), sys.argv[4]
best = re.search(r"^best: (\d+) threads per block, (\d+) nonces per thread", out, re.M)
entries = [l for l in cache if not l.startswith("#")]
for l in cuda.splitlines():
    assert l in entries, (l, entries)
ocl = [l.split("\t") for l in entries if l.split("\t")[1] == "opencl:" + model]
assert len(ocl) == 1 and len(entries) == 3, entries
assert ocl[0][0] == "sha256d" and ocl[0][2:4] == [best[1], best[2]] and int(ocl[0][4]) > 0, ocl
PY

# kiln bench on the device runs the OpenCL entry: set to 64 x 4 here, so that it differs from the
# CUDA one whatever the sweep found
sed -i "s/^sha256d\topencl:\([^\t]*\)\t[0-9]*\t[0-9]*\t/sha256d\topencl:\1\t64\t4\t/" "$cache"
[ "$(bench_shape 2>"$TMP/err")" = "64 4" ] && ok || bad "bench with the OpenCL entry: $(cat "$TMP/err" "$cache")"

# a set of the device twice: one model, one sweep, its entry under the model (not "2 x ...")
rc=$(run "$KILN" tune --algo sha256d --device "$OCLDEV,${OCLDEV#opencl:}" --seconds 0.05 --quiet)
[ "$rc" = 0 ] && grep -q '^a set of 2 devices, 1 GPU model: ' "$TMP/out" &&
    [ "$(grep -c '^tuning sha256d on ' "$TMP/out")" = 1 ] && grep -qF "$OCLDEV ($model)" "$TMP/out" && ok ||
    bad "tune on $OCLDEV twice: exit $rc: $(cat "$TMP/out" "$TMP/err")"
awk -F '\t' -v m="opencl:$model" '$1 == "sha256d" && $2 == m { n++ } $2 ~ /^opencl:[0-9]+ x / { bad = 1 }
    END { exit !(n == 1 && !bad) }' "$cache" && grep -qxF "$(printf '%s\n' "$cuda_lines" | head -1)" "$cache" && ok ||
    bad "the cache after the set: $(cat "$cache")"

# the contract's exit codes: a device that is not there 3, the CPU (no launch shape) 2
[ "$(run "$KILN" tune --device opencl:9)" = 3 ] && grep -q "no OpenCL device opencl:9" "$TMP/err" && ok ||
    bad "tune --device opencl:9: $(cat "$TMP/err")"
[ "$(run "$KILN" tune --device cpu)" = 2 ] && grep -q "use --device cuda or opencl" "$TMP/err" && ok ||
    bad "tune --device cpu: $(cat "$TMP/err")"

echo "test_opencl_tune_cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
