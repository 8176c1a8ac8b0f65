#!/usr/bin/env bash
# The GPU machine's run for device sets and MPI on GPUs (one GPU is enough: logical devices):
# builds this tree (and BASE, an older source tree, for the one-device overhead), runs every test
# with the GPU ones (the mining tests' node and pool on the GPU too), compute-sanitizer on the
# several-device paths, the mpirun GPU test, NVML health against nvidia-smi, the one-device speed
# against BASE (bench-compare), and PageRank and mining on one GPU split in logical devices.
# Environment: STEPS (default "test sanitize overhead sets"), BASE (default base-src), ROUNDS,
# TEST_REGEX (the test step runs only the tests it matches), SET_SCALE (RMAT scale of the last
# sets rows, default 26).
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
STEPS=" ${STEPS:-test sanitize overhead sets} "
BASE=${BASE:-base-src}
JOBS=$(nproc 2>/dev/null || echo 8)
export PATH="$PATH:/usr/local/cuda/bin"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
row() { printf '%-46s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
want() { case "$STEPS" in *" $1 "*) return 0 ;; esac; return 1; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
row "gpu" "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
command -v ompi_info >/dev/null &&
    row "MPI" "$(ompi_info --version 2>/dev/null | head -1), CUDA-aware: $(ompi_info --parsable --all 2>/dev/null | grep -m1 'mpi_built_with_cuda_support:value' | cut -d: -f7)"

# libjansson (pool mining, the monitor) from carried .debs when the machine lacks it
prefix=/tmp/kiln-jansson
. scripts/jansson-from-debs.sh "$prefix" >/dev/null 2>&1 && export CMAKE_PREFIX_PATH=$prefix/usr
configure() {
    cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON ||
        cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_POOL=OFF
}
{ [ -x build-gpu/kiln ] && [ -z "${REBUILD:-}" ] && cmake --build build-gpu -j "$JOBS" ||
    { configure && cmake --build build-gpu -j "$JOBS"; }; } >"$OUT/build.log" 2>&1 &
pn=$!
if want overhead && [ -d "$BASE" ] && [ ! -x build-base/kiln ]; then
    { cmake -S "$BASE" -B build-base -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_TESTS=OFF &&
        cmake --build build-base -j "$JOBS" --target kiln_cli; } >"$OUT/build-base.log" 2>&1 &
    pb=$!
    wait $pb
    row "build (BASE)" "$(status $?)"
fi
wait $pn
rn=$?
row "build (this tree)" "$(status $rn), $(($(date +%s) - T0)) s, $(grep -o 'kiln: [a-z ]*mining [A-Z]*\|kiln: TLS pools [A-Z]*' "$OUT/build.log" | tr '\n' ' ')"
[ $rn -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
K=build-gpu/kiln

if want test && [ -n "${TEST_REGEX:-}" ]; then
    # only the tests named (a kernel change checked before the whole run)
    t=$(date +%s)
    ctest --test-dir build-gpu -R "$TEST_REGEX" --output-on-failure >"$OUT/tests.log" 2>&1
    row "ctest -R $TEST_REGEX" "$(status $?), $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tr '\n' ' '), $(($(date +%s) - t)) s"
    grep -E '\((Failed|Timeout)\)|FAIL' "$OUT/tests.log" | head -20
elif want test; then
    t=$(date +%s)
    GBT_DEVICE=cuda ctest --test-dir build-gpu -E 'test_cuda_|test_mpi' -j "$JOBS" --output-on-failure >"$OUT/tests.log" 2>&1
    r1=$?
    ctest --test-dir build-gpu -R 'test_cuda_|test_mpi' --output-on-failure -V >>"$OUT/tests.log" 2>&1
    r2=$?
    row "ctest (all; GPU and mpirun tests last)" "$(status $((r1 | r2))), $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tr '\n' ' '), $(($(date +%s) - t)) s"
    grep -E '\((Failed|Timeout)\)|FAIL' "$OUT/tests.log" | head -20
    grep -E '^test_(mpi|cli_device)|cuda:0,0' "$OUT/tests.log" | head -8
    bash tests/test_devices_health.sh "$K" tests/data >"$OUT/health.log" 2>&1
    row "NVML health vs nvidia-smi" "$(status $?), $(tail -1 "$OUT/health.log")"
    POOL_DEVICE=cuda POOL_DIFFICULTY=0.5 timeout 120 bash tests/pool/run_scenario.sh "$K" tls_gpu >"$OUT/tls_gpu.log" 2>&1
    row "pool over TLS on the GPU (tls_gpu)" "$(status $?), $(tail -1 "$OUT/tls_gpu.log")"
fi

if want sanitize; then
    for spec in "memcheck test_cuda_pagerank KILN_TEST_SMALL=1" \
        "memcheck test_cuda_pagerank KILN_TEST_ONLY=parts" "racecheck test_cuda_pagerank KILN_TEST_ONLY=parts" \
        "memcheck test_cuda_devices KILN_TEST_QUICK=1" "racecheck test_cuda_devices KILN_TEST_QUICK=1"; do
        set -- $spec
        s=$(date +%s)
        env "$3" timeout 300 compute-sanitizer --tool "$1" --error-exitcode 99 "build-gpu/tests/$2" >"$OUT/san.log" 2>&1
        rc=$?
        row "sanitizer $1 $2 ($3)" "$(status $rc), $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/san.log" | tail -1 | sed 's/^=* *//'), $(($(date +%s) - s)) s"
        [ $rc -ne 0 ] && tail -5 "$OUT/san.log"
    done
fi

if want overhead && [ -x build-base/kiln ]; then
    # one device through the new code against BASE, same device, builds in turns
    OUT=$OUT SPECS="sha256d scrypt pagerank merkle-sha256d" bash scripts/bench-compare.sh build-base/kiln "$K" cuda "${ROUNDS:-3}" |
        tee "$OUT/overhead.txt" | tail -8
fi

if want sets; then
    pr() { "$K" pagerank --rmat "$1" --device "$2" --tol 0 --max-iter 20 --repeat 3 --json 2>/dev/null |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.3f ms/iteration, kernel %s, devices %d" % (d["seconds_per_iteration"]*1e3, d["kernel"], d["devices"]))'; }
    for dev in cuda cuda:0,0 cuda:0,0,0,0; do row "pagerank RMAT 24 --device $dev" "$(pr 24 $dev)"; done
    for dev in cuda cuda:0,0; do row "pagerank RMAT ${SET_SCALE:-26} --device $dev" "$(pr "${SET_SCALE:-26}" $dev)"; done
    bm() { "$K" bench --algo "$1" --device "$2" --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d.get("results",[d]); print("%.4g %s" % (r[0]["rate"], r[0].get("unit","")))'; }
    for dev in cuda cuda:0,0; do row "bench sha256d --device $dev" "$(bm sha256d $dev)"; done
fi
echo "================ summary ($(($(date +%s) - T0)) s)"
cat "$SUMMARY"
