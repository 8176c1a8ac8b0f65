#!/usr/bin/env bash
# One GPU-machine run for a restructuring: builds this tree (everything, tests included) and, when
# BASE names an older source tree, that tree's CLI beside it, both with CMake in parallel; then the
# steps of STEPS (default "test sanitize compare"):
#   test      every test, the GPU ones included (the GPU tests one at a time, after the others)
#   sanitize  compute-sanitizer memcheck on every GPU test in its quick mode, racecheck on the
#             Merkle, scrypt and PageRank kernels (they use shared memory and warp shuffles)
#   selftest  kiln selftest, mine --demo and devices on the GPU
#   compare   scripts/bench-compare.sh: every bench of both builds, in turns, ROUNDS rounds
# Logs go to $OUT; the last lines printed are a short table.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
STEPS=" ${STEPS:-test sanitize selftest compare} "
JOBS=$(nproc 2>/dev/null || echo 8)
export PATH="$PATH:/usr/local/cuda/bin"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
row() { printf '%-40s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
want() { case "$STEPS" in *" $1 "*) return 0 ;; esac; return 1; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >/tmp/kiln-machine.txt 2>&1
row "gpu" "$(head -1 /tmp/kiln-machine.txt)"

build_new() {
    [ -x build-gpu/kiln ] && [ -z "${REBUILD:-}" ] && return 0
    cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON && cmake --build build-gpu -j "$JOBS"
}
build_base() {
    [ -z "${BASE:-}" ] && return 0
    [ -x build-base/kiln ] && return 0
    cmake -S "$BASE" -B build-base -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_TESTS=OFF &&
        cmake --build build-base -j "$JOBS" --target kiln_cli
}
build_new >"$OUT/build.log" 2>&1 &
pn=$!
build_base >"$OUT/build-base.log" 2>&1 &
pb=$!
wait $pn; rn=$?
wait $pb; rb=$?
row "build (this tree, CUDA)" "$(status $rn), $(($(date +%s) - T0)) s"
[ -n "${BASE:-}" ] && row "build (BASE, CUDA)" "$(status $rb)"
[ $rn -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }

if want test; then
    t=$(date +%s)
    ctest --test-dir build-gpu -E 'test_cuda_' -j "$JOBS" --output-on-failure >"$OUT/tests.log" 2>&1
    r1=$?
    ctest --test-dir build-gpu -R 'test_cuda_' --output-on-failure -V >>"$OUT/tests.log" 2>&1
    r2=$?
    row "ctest (CPU tests, then GPU tests)" "$(status $((r1 | r2))), $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tr '\n' ' '), $(($(date +%s) - t)) s"
    grep -E 'Skipped|Failed' "$OUT/tests.log" | head -20
fi

if want sanitize; then
    for t in build-gpu/tests/test_cuda_*; do
        n=$(basename "$t")
        tools="memcheck"
        case $n in *merkle* | *scrypt* | *pagerank*) tools="memcheck racecheck" ;; esac
        for tool in $tools; do
            s=$(date +%s)
            KILN_TEST_QUICK=1 KILN_TEST_SMALL=1 compute-sanitizer --tool $tool --error-exitcode 99 "$t" >"$OUT/san-$n-$tool.log" 2>&1
            rc=$?
            row "sanitizer $tool $n" "$(status $rc), $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san-$n-$tool.log" | tail -1 | sed 's/^=* *//'), $(($(date +%s) - s)) s"
        done
    done
    cat "$OUT"/san-*.log >"$OUT/sanitizer.log" 2>/dev/null
    rm -f "$OUT"/san-*.log
fi

if want selftest; then
    {
        build-gpu/kiln devices
        echo "exit $?"
        build-gpu/kiln selftest --device cuda
        echo "exit $?"
        build-gpu/kiln mine --demo --device cuda
        echo "exit $?"
    } >"$OUT/cli.log" 2>&1
    cat "$OUT/cli.log"
fi

if want compare && [ -n "${BASE:-}" ]; then
    OUT=$OUT bash scripts/bench-compare.sh build-base/kiln build-gpu/kiln cuda "${ROUNDS:-2}" | tee "$OUT/compare.txt"
fi
echo "================ summary ($(($(date +%s) - T0)) s)"
cat "$SUMMARY"
