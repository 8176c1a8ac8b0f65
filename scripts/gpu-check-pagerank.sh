#!/usr/bin/env bash
# PageRank on the GPU machine, in one call: build (Release, CUDA, sm_90), the graph/PageRank tests,
# compute-sanitizer memcheck + racecheck on the GPU test, then the benchmark table: ego-Facebook
# 1000 iterations, RMAT scale 22/24/26 (time per iteration, edges/s, fraction of the compulsory-
# traffic bound at the measured copy bandwidth) beside the cuSPARSE route (anchors/pagerank_cupy.py
# on the same graphs), and the CPU path beside the GAP benchmark suite's pr.
#
# Run from the repository root. Needs anchors/pagerank_cupy.py (copied from shared/anchors) and, for
# the CPU comparison, the GAP source in .peers/gapbs; a zlib copy in .peers/zlib is used when the
# machine has no zlib headers. Environment: QUICK=1 skips the peers, NO_SANITIZER=1 the sanitizer,
# SCALES="22 24 26", CPU_SCALES="20 21 22", NCU=SCALE profiles one grid iteration of RMAT SCALE with
# Nsight Compute. The sanitizers run last. Logs and JSON lines go to $OUT.
set -u
OUT=${OUT:-/tmp/kiln-gpu-out}
mkdir -p "$OUT"
SCALES=${SCALES:-"22 24 26"}
CPU_SCALES=${CPU_SCALES:-"20 21 22"}
ROOT=$(pwd)
B=$ROOT/build-gpu
KILN=$B/kiln
J=$OUT/kiln.jsonl
: >"$J"
t0=$(date +%s)
stamp() { echo "== [$(($(date +%s) - t0))s] $*"; }

stamp "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.used,memory.total --format=csv,noheader
nproc
ZOPT=""
if [ ! -f /usr/include/zlib.h ] && [ -f .peers/zlib/include/zlib.h ]; then
    ZOPT="-DZLIB_ROOT=$ROOT/.peers/zlib"
    echo "no system zlib headers: using the carried copy"
fi

stamp "build"
# warnings are reported here rather than fatal: this machine's host compiler may differ from CI's
cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90 -DKILN_WERROR=OFF $ZOPT \
    >"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
grep -E "kiln: (CUDA|zlib)" "$OUT/build.log"
if ! cmake --build "$B" -j"$(nproc)" >>"$OUT/build.log" 2>&1; then
    grep -E "error|Error" "$OUT/build.log" | head -30
    exit 1
fi
echo "$(gcc --version | head -1); $(nvcc --version | tail -1); build warnings: $(grep -c "warning" "$OUT/build.log")"
grep -m5 "warning" "$OUT/build.log"

stamp "tests"
ctest --test-dir "$B" --output-on-failure -R 'pagerank|graph|rmat' -E cuda >"$OUT/ctest.log" 2>&1
tail -12 "$OUT/ctest.log"
grep -E "^(facebook|RMAT)" "$OUT/ctest.log" || true
"$B/tests/test_cuda_pagerank" >"$OUT/test_cuda.log" 2>&1
echo "test_cuda_pagerank rc=$?: $(tail -1 "$OUT/test_cuda.log")"
grep -E "^(facebook|RMAT)" "$OUT/test_cuda.log"

run() { # label, kiln arguments...
    local label=$1
    shift
    local line
    line=$("$KILN" pagerank "$@" --json 2>/tmp/last.err)
    local rc=$?
    if [ -n "$line" ]; then echo "{\"label\": \"$label\", \"rc\": $rc, \"run\": $line}" >>"$J"; fi
    [ $rc -eq 0 ] || { echo "$label: exit $rc: $(cat /tmp/last.err)"; }
}

stamp "kiln GPU: ego-Facebook"
FB=tests/data/facebook_combined.txt
run fb_f32 "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --precision float32
run fb_f32_grid "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --precision float32 --gpu-kernel grid
run fb_f32_noreorder "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --precision float32 --no-reorder
run fb_f64 "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --precision float64
run fb_f64_grid "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --precision float64 --gpu-kernel grid
run fb_conv "$FB" --undirected --tol 1e-10 --max-iter 1000 --repeat 5 --precision float32
for s in $SCALES; do
    stamp "kiln GPU: RMAT scale $s"
    run "gpu_rmat$s" --rmat "$s" --tol 0 --max-iter 20 --repeat 5
    run "gpu_rmat${s}_noreorder" --rmat "$s" --tol 0 --max-iter 20 --repeat 5 --no-reorder
done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader

if [ -z "${QUICK:-}" ]; then
    stamp "cuSPARSE route (anchors/pagerank_cupy.py)"
    PYTHONUNBUFFERED=1 timeout 360 python3 anchors/pagerank_cupy.py --scales "$(echo $SCALES | tr ' ' ,)" --iters 20 --reps 5 \
        --facebook "$FB" --cpu-ref-scale 0 --budget-s 420 >"$OUT/anchor.log" 2>&1
    grep -E "^PR_(BW|FACEBOOK|GRAPH|RESULT|CHECK|SKIP|FAIL)" "$OUT/anchor.log"
fi

stamp "kiln CPU"
for s in $CPU_SCALES; do
    run "cpu_rmat$s" --rmat "$s" --device cpu --tol 0 --max-iter 20 --repeat 3
    run "cpu_rmat${s}_undirected" --rmat "$s" --undirected --device cpu --tol 0 --max-iter 20 --repeat 3
done
if [ -z "${QUICK:-}" ] && [ -d .peers/gapbs ]; then
    stamp "GAP pr"
    make -C .peers/gapbs pr >"$OUT/gap.log" 2>&1 || tail -5 "$OUT/gap.log"
    for s in $CPU_SCALES; do
        echo "GAP_SCALE $s" >>"$OUT/gap.log"
        timeout 120 .peers/gapbs/pr -g "$s" -n 3 -i 20 -t 0 >>"$OUT/gap.log" 2>&1
    done
    grep -E "GAP_SCALE|Graph has|Average Time" "$OUT/gap.log"
fi

stamp "table"
python3 scripts/pagerank_table.py "$OUT" | tee "$OUT/table.txt"

if [ -n "${NCU:-}" ]; then
    # what bounds the grid kernel: one iteration of RMAT $NCU profiled (L1/L2/DRAM throughput,
    # hit rates, sectors per request)
    stamp "ncu: grid kernel, RMAT $NCU"
    timeout 180 ncu --clock-control none -k regex:pr_iteration --launch-skip 2 --launch-count 1 \
        --metrics gpu__time_duration.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
        "$KILN" pagerank --rmat "$NCU" --tol 0 --max-iter 4 --gpu-kernel grid --json >"$OUT/ncu.log" 2>&1
    grep -E "^ +[a-z_]+__|gpu__time" "$OUT/ncu.log" | head -20
fi

if [ -z "${NO_SANITIZER:-}" ]; then
    # SANITIZE=cluster (default) or persistent: that kernel alone (test_cuda_pagerank's
    # KILN_TEST_ONLY set, then a CLI run); SANITIZE=all: the whole small test set, every
    # kernel (the grid kernel's racecheck takes about five minutes)
    for tool in memcheck racecheck; do
        stamp "compute-sanitizer $tool"
        echo "=== $tool" >>"$OUT/sanitizer.log"
        if [ "${SANITIZE:-cluster}" = all ]; then envs="KILN_TEST_SMALL=1"; else envs="KILN_TEST_ONLY=${SANITIZE:-cluster}"; fi
        K_CLI=${SANITIZE:-cluster}
        [ "$K_CLI" = all ] && K_CLI=cluster
        env $envs timeout "${SANITIZER_TIMEOUT:-240}" compute-sanitizer --tool $tool --error-exitcode 99 \
            "$B/tests/test_cuda_pagerank" >/tmp/sanitizer_$tool.log 2>&1
        rc=$?
        cat /tmp/sanitizer_$tool.log >>"$OUT/sanitizer.log"
        echo "$tool rc=$rc $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" /tmp/sanitizer_$tool.log | tr '\n' ' ')"
        iters=1500 # three launches (memcheck); racecheck tracks every shared access: a few iterations
        [ $tool = racecheck ] && iters=4
        timeout "${SANITIZER_TIMEOUT:-240}" compute-sanitizer --tool $tool --error-exitcode 99 "$KILN" pagerank "$FB" \
            --undirected --tol 0 --max-iter "$iters" --gpu-kernel "${K_CLI:-cluster}" --top 3 >/tmp/sanitizer_cli.log 2>&1
        rc=$?
        cat /tmp/sanitizer_cli.log >>"$OUT/sanitizer.log"
        echo "$tool CLI ${K_CLI:-cluster} $iters iterations rc=$rc $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" /tmp/sanitizer_cli.log | tr '\n' ' ')"
    done
fi
