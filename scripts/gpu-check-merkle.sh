#!/usr/bin/env bash
# GPU check of the Merkle work, run on the machine with the GPU from the repository root:
#   configure + build (Release, CUDA, sm_90), the Merkle tests (GPU ones included), compute-sanitizer
#   memcheck and racecheck on the GPU test (quick sizes), kernel resources and SASS counts, kiln tune
#   for merkle-sha256d and merkle-rp64 (cached, so the benchmarks use the tuned shape), then kiln
#   bench for 2^20, 2^24 and 2^26 leaves with every approach. The table is printed last; logs go
#   to $OUT (else ./out): build.log tests.log sanitizer.log tune.log bench.log summary.txt.
# Environment: KILN_GPU_SKIP = steps to skip (space-separated: tests sanitizer tune bench),
#              KILN_GPU_SIZES = leaf exponents to bench (default "20 24 26").
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
B=build-gpu
SKIP=" ${KILN_GPU_SKIP:-} "
SIZES=${KILN_GPU_SIZES:-20 24 26}
JOBS=$(nproc 2>/dev/null || echo 4)
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin"
export XDG_CACHE_HOME=$OUT/cache
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
row() { printf '%-30s %s\n' "$1" "$2" >>"$SUMMARY"; }
note() { echo "[gpu-check-merkle +$(($(date +%s) - T0))s] $*"; }
skip() { case "$SKIP" in *" $1 "*) return 0 ;; esac; return 1; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }

row "gpu" "$(nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1 | head -1)"

note "configure + build"
{
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 &&
        cmake --build "$B" -j "$JOBS" --target kiln_cli test_cuda_merkle test_merkle test_rescue test_block_parse
} >"$OUT/build.log" 2>&1
rc=$?
row "build (Release, sm_90)" "$(status $rc), $(($(date +%s) - T0)) s"
if [ $rc -ne 0 ]; then
    tail -40 "$OUT/build.log"
    cat "$SUMMARY"
    exit 1
fi
KILN=$B/kiln

if ! skip tests; then
    note "tests"
    t=$(date +%s)
    ctest --test-dir "$B" -R 'merkle|rescue|block_parse' -V >"$OUT/tests.log" 2>&1
    rc=$?
    row "ctest merkle|rescue|block" "$(status $rc), $(grep -E 'tests passed' "$OUT/tests.log" | tail -1), $(($(date +%s) - t)) s"
    for tst in test_cuda_merkle test_merkle test_rescue test_block_parse test_cli_merkle; do
        num=$(grep -E "Start +[0-9]+: $tst\$" "$OUT/tests.log" | grep -Eo '[0-9]+' | head -1)
        row "  $tst" "$(grep -E "^${num:-x}: [0-9]+ passed, [0-9]+ failed" "$OUT/tests.log" | tail -1 | sed "s/^${num:-x}: //")"
    done
fi

if ! skip sanitizer; then
    : >"$OUT/sanitizer.log"
    for tool in memcheck racecheck synccheck; do
        note "compute-sanitizer $tool"
        t=$(date +%s)
        echo "==== compute-sanitizer --tool $tool (KILN_TEST_QUICK=1)" >>"$OUT/sanitizer.log"
        KILN_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 99 "$B/tests/test_cuda_merkle" \
            >>"$OUT/sanitizer.log" 2>&1
        rc=$?
        row "compute-sanitizer $tool" "$(status $rc), $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer.log" | tail -1 | sed 's/^=* *//'), $(($(date +%s) - t)) s"
    done
fi

note "kernel resources and SASS"
cuobjdump --dump-resource-usage "$KILN" >"$OUT/sass.txt" 2>&1
cuobjdump --dump-sass "$KILN" >>"$OUT/sass.txt" 2>&1
python3 - "$OUT/sass.txt" >>"$SUMMARY" 2>&1 <<'PY'
import re, sys
text = open(sys.argv[1]).read()
algo = {"0": "sha256d", "1": "sha256", "4": "rp64_256"}
for m in re.finditer(r"Function (\S*(level|subtree)_kernelILi(\d)E\S*):\s*\n\s*(REG:\d+) (STACK:\d+) (SHARED:\d+) (LOCAL:\d+)", text):
    name = m.group(1)
    body = text.split("Function : " + name, 1)
    n = len(re.findall(r"^\s+/\*[0-9a-f]{4,}\*/", body[1].split("Function :", 1)[0], re.M)) if len(body) > 1 else 0
    print("    %-8s %-8s %s %s %s  SASS instructions %d" % (m.group(2), algo.get(m.group(3), m.group(3)), m.group(4), m.group(5), m.group(7), n))
m = re.search(r"Function (\S*rp64_coop_kernel\S*):\s*\n\s*(REG:\d+) (STACK:\d+)", text)
if m:
    body = text.split("Function : " + m.group(1), 1)
    n = len(re.findall(r"^\s+/\*[0-9a-f]{4,}\*/", body[1].split("Function :", 1)[0], re.M)) if len(body) > 1 else 0
    print("    %-8s %-8s %s %s  SASS instructions %d" % ("coop16", "rp64_256", m.group(2), m.group(3), n))
PY

if ! skip tune; then
    : >"$OUT/tune.log"
    for a in merkle-sha256d merkle-rp64; do
        note "tune $a"
        t=$(date +%s)
        timeout 150 "$KILN" tune --algo $a >>"$OUT/tune.log" 2>&1
        rc=$?
        row "tune $a" "$(status $rc), $(grep '^best' "$OUT/tune.log" | tail -1), $(($(date +%s) - t)) s"
    done
fi

if ! skip bench; then
    : >"$OUT/bench.log"
    for a in merkle-sha256d merkle-rp64; do
        for e in $SIZES; do
            reps=10
            [ "$a" = merkle-rp64 ] && reps=5
            [ "$e" -ge 26 ] && reps=3
            note "bench $a 2^$e"
            timeout 150 "$KILN" bench --algo $a --leaves "2^$e" --reps $reps >>"$OUT/bench.log" 2>&1 || echo "bench $a 2^$e FAILED" >>"$OUT/bench.log"
        done
    done
fi

echo
echo "==== summary ($(($(date +%s) - T0)) s)"
cat "$SUMMARY"
echo
[ -f "$OUT/tune.log" ] && cat "$OUT/tune.log"
echo
[ -f "$OUT/bench.log" ] && cat "$OUT/bench.log"
