#!/usr/bin/env bash
# The device run for PageRank and Merkle trees over several GPUs of one host (device kinds
# nvidia-h100-x2/-x4, nvidia-h200-x2/-x4; one GPU runs what needs one): builds this tree for Hopper
# with its tests, runs the GPU tests of device sets and mpirun (test_cuda_pagerank_sets, the
# row-part pass on logical devices, test_mpi_pagerank), compute-sanitizer over the new kernels and
# the NCCL path, then scripts/gpu-scaling.sh (STEPS, SCALES, ... as there) on the same build.
# Everything is written to $OUT as it comes (summary.txt, scaling.txt, the logs).
# Environment: CHECK (default "test sanitize scaling"), and gpu-scaling.sh's variables.
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
CHECK=" ${CHECK:-test sanitize scaling} "
JOBS=$(nproc)
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)
row() { printf '%-48s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
want() { case "$CHECK" in *" $1 "*) return 0 ;; esac; return 1; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
row "gpus" "$(nvidia-smi -L | wc -l) x $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1)"
row "links" "$(nvidia-smi topo -m 2>/dev/null | sed -n 2p | tr -s ' \t' ' ' | cut -c1-70)"
B=build-gpu
{ cmake -S . -B $B -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real &&
    cmake --build $B -j "$JOBS" --target kiln_cli kiln_tests; } >"$OUT/build.log" 2>&1
rc=$?
row "build" "$(status $rc), $(($(date +%s) - T0)) s; $(grep -o 'kiln: \(NCCL\|MPI\) [A-Z]*' "$OUT/build.log" | tr '\n' ' ')"
[ $rc -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
K=$B/kiln

if want test; then
    t=$(date +%s)
    ctest --test-dir $B -R "${TEST_REGEX:-test_cuda_pagerank_sets|test_cuda_pagerank$|test_mpi_pagerank|test_cli_device_sets|test_cli_version|test_cuda_merkle}" \
        --output-on-failure >"$OUT/tests.log" 2>&1
    row "ctest (sets, parts, mpirun)" "$(status $?), $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tr '\n' ' ')$(($(date +%s) - t)) s"
    grep -E '\((Failed|Timeout)\)|FAIL' "$OUT/tests.log" | head -20
fi

if want sanitize; then
    # the partitioned RMAT build and the parts on logical devices, then the NCCL exchange on
    # the real set; API errors are not reported, since NCCL probes the driver with calls that
    # fail by design (kiln checks every call of its own)
    for spec in "memcheck cuda:0,0" "memcheck cuda:all" "racecheck cuda:0,0"; do
        set -- $spec
        t=$(date +%s)
        log=$OUT/san-$1-${2//[:,]/_}.log
        timeout 300 compute-sanitizer --tool "$1" --report-api-errors no --error-exitcode 99 "$K" pagerank --rmat 12 \
            --device "$2" --tol 0 --max-iter 5 >"$log" 2>&1
        rc=$?
        row "compute-sanitizer $1, pagerank --rmat 12 $2" "$(status $rc), $(grep -m1 'ERROR SUMMARY' "$log"), $(($(date +%s) - t)) s"
        [ $rc -ne 0 ] && grep -m3 -A12 '^========= [A-Z]' "$log"
    done
fi

if want scaling; then
    KILN_BUILD=$B bash scripts/gpu-scaling.sh
fi
row "total" "$(($(date +%s) - T0)) s"
