#!/usr/bin/env bash
# The device runner: the one script for the GPU machine, run from the repository root, in named
# steps. Every step writes its logs to $OUT (default ./out) and a short table to the screen and to
# $OUT/summary.txt.
#   STEPS="build test" bash scripts/device.sh [ANCHORS_DIR]          (default STEPS: build test)
# The steps run in this order, whatever order STEPS names them in:
#   build     the Release GPU configuration (below) of this tree, library, CLI and tests
#   test      the suite with the GPUs: the tests that touch a GPU first (ctest -R $GPU_TESTS), then
#             the rest (SUITE_EXCLUDE leaves tests out); `gpu` and `suite` name the two halves
#             (`gpu` also runs kiln selftest on the GPU);
#             TESTS=regex runs only the tests it matches, verbose (log: tests.log)
#   sanitize  the sanitizer configuration; compute-sanitizer (SAN_TOOLS, default memcheck and
#             racecheck) on every test program labelled gpu and not long (SAN_TESTS narrows them,
#             a ctest -R regex) in its quick sizes (racecheck on those SAN_RACE matches: the
#             Merkle, scrypt, PageRank and hash kernels, which share memory or shuffle), then on
#             the CLI: PageRank's persistent kernel (ego-Facebook) and the several-device paths
#             (RMAT 12 on cuda:0,0 and cuda:all); SAN_CLI=0 skips those
#   bench     every bench (SPECS) of this build on BENCH_DEVICES (default cuda:0), the median of
#             ROUNDS runs; then POOL_SECONDS (20; 0: none) of mining on the GPU against the test
#             pool (tests/pool), its rate over the bench's
#   compare   an older tree built beside this one (BASE: a source folder, or BASE_TAR: a `git
#             archive` of the commit, e.g. `git archive -o base.tar HEAD~3`, carried), the same
#             configuration; every bench of SPECS on cuda:0, the two builds taking turns for
#             ROUNDS rounds; the median per row, new/base, and the rows outside +-2% named
#   scaling   PageRank RMAT SCALES on 1..N GPUs of the host (cuda:0, cuda:0,1, ..., cuda:all),
#             cuda:all with KILN_NCCL=0, and mpirun with a process per GPU; sha256d's bench and
#             the whole Merkle build of 2^MERKLE_LOG2 (26) leaves on 1 GPU and on all
#   opencl    NVIDIA's OpenCL driver: the OpenCL tests on the GPU, then every bench of OCL_ALGOS
#             on cuda:0 and on the OpenCL GPU, in turns, opencl/cuda per row (OCL_DEVICE names
#             another OpenCL device than the one kiln devices lists as NVIDIA's)
#   peers     the peers of ANCHORS_DIR (the first argument, else $ANCHORS, else ./anchors: a copy
#             of ../shared/anchors with pkgs/ fetched, see its README): hashcat (CUDA) and the
#             cuSPARSE PageRank route, each beside kiln's figure on the same GPU, kiln/peer
#   data      issue 38's rows: experiments/data_path_bench.c (host-to-device bandwidth, the
#             Merkle builds and the hash batch from host memory, as a fraction of the page-locked
#             bandwidth), examples/cuda_leaves, python/tests/test_device_arrays.py when CuPy is here
#   parse     the SNAP text parser: the serial and the chunked parser over MIB MiB of generated
#             edges on THREADS threads, then the whole load (tests/test_graph_parse_parallel), its
#             CSR built on the host and on cuda:0
# One CMake configuration per purpose, each in its own folder:
#   build-dev       Release, CUDA (the project's architectures) and OpenCL: build, test, bench,
#                   scaling, opencl, peers, data, parse, and compare's new build
#   build-dev-san   RelWithDebInfo (host frames named; the kernels carry -lineinfo in every
#                   build), CUDA for sm_90 alone, no OpenCL: sanitize
#   build-dev-base  compare's base tree, build-dev's configuration (warnings not errors), CLI only
# Environment: OUT, JOBS (ctest -j, 8), ROUNDS (3), SPECS, GPU_TESTS, TESTS, SUITE_EXCLUDE, SAN_*,
# BASE, BASE_TAR, SCALES, BENCH_SECONDS, MIB, THREADS; the defaults are below. A device call has
# 10 minutes: split the steps over calls (STEPS=build, then STEPS=test, ...); the build folders
# stay while the machine is warm, and a step builds again only what changed.
# libjansson (pool mining, the pool tests) comes from the .debs carried in .debs/
# (scripts/jansson-from-debs.sh); NVIDIA's OpenCL driver is on the host but no ICD file names it,
# so one is written in a temporary vendors folder (OCL_ICD_VENDORS).
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
ANCHORS=${1:-${ANCHORS:-}}
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
STEPS=" ${STEPS:-build test} "
JOBS=${JOBS:-8}
ROUNDS=${ROUNDS:-3}
SPECS=${SPECS:-"all scrypt-kdf merkle-sha256d merkle-sha256 merkle-rp64 pagerank"}
B=${KILN_DEVICE_BUILD:-build-dev}
S=${KILN_SAN_BUILD:-build-dev-san}
BB=${KILN_BASE_BUILD:-build-dev-base}
CMP_DEVICE=${CMP_DEVICE:-cuda:0}
K=$B/kiln
SUMMARY=$OUT/summary.txt
T0=$(date +%s)
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin"
has() { case "$STEPS" in *" $1 "*) return 0 ;; esac; return 1; }
row() { printf '%-44s %s\n' "$1" "$2" | tee -a "$SUMMARY"; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }
since() { echo "$(($(date +%s) - $1)) s"; }
has tests && STEPS="$STEPS test " # the name of an earlier runner's step
has test && STEPS="$STEPS gpu suite "

ICD=$(mktemp -d /tmp/kiln-icd.XXXX)
NV=$(ls /usr/local/nvidia/lib64/libnvidia-opencl.so.1 /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 2>/dev/null | head -1)
[ -n "$NV" ] && echo "$NV" >"$ICD/nvidia.icd"
for f in /etc/OpenCL/vendors/*.icd; do [ -f "$f" ] && cp "$f" "$ICD/"; done
export OCL_ICD_VENDORS=$ICD
# shellcheck source=scripts/jansson-from-debs.sh
. scripts/jansson-from-debs.sh /tmp/kiln-jansson >/dev/null 2>&1 || row "libjansson" "absent: no pool mining, no pool tests"
NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
row "gpus" "$NGPU x $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"
row "OpenCL driver" "${NV:-not found}"

# ---- the configurations
# cfg_release DIR SRC [CMAKE ARGS...]: build-dev's, also the base tree's in compare
cfg_release() {
    local lib
    lib=$(ls /usr/lib/x86_64-linux-gnu/libOpenCL.so /usr/lib/x86_64-linux-gnu/libOpenCL.so.1 2>/dev/null | head -1)
    cmake -S "$2" -B "$1" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=ON ${lib:+-DOpenCL_LIBRARY=$lib} "${@:3}"
}
cfg_sanitize() {
    cmake -S . -B "$S" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKILN_CUDA=ON -DKILN_OPENCL=OFF \
        -DCMAKE_CUDA_ARCHITECTURES=90-real
}
base_src() { # the base tree's folder, unpacked from BASE_TAR once
    if [ -n "${BASE:-}" ]; then echo "$BASE"; return; fi
    [ -n "${BASE_TAR:-}" ] || return 1
    [ -f "$BB-src/CMakeLists.txt" ] || { mkdir -p "$BB-src" && tar xf "$BASE_TAR" -C "$BB-src"; } || return 1
    echo "$BB-src"
}
build_base() {
    local src
    src=$(base_src) || { echo "no BASE or BASE_TAR"; return 1; }
    cfg_release "$BB" "$src" -DKILN_TESTS=OFF -DKILN_WERROR=OFF && cmake --build "$BB" -j "$(nproc)" --target kiln_cli
}
# the OpenCL device of the GPU (the loader may list PoCL's CPU device too): the tests' device
ocl_gpu() {
    "$K" devices 2>/dev/null | grep -oE '^opencl:[0-9]+ +NVIDIA' | head -1 | cut -d' ' -f1
}

# ---- build
base_pid=
if has compare && [ ! -x "$BB/kiln" ] && { [ -n "${BASE:-}" ] || [ -n "${BASE_TAR:-}" ]; }; then
    build_base >"$OUT/build-base.log" 2>&1 &
    base_pid=$!
fi
needs_dev=0 # a step other than sanitize runs build-dev's programs: built here when absent
for s in $STEPS; do [ "$s" != sanitize ] && [ "$s" != build ] && needs_dev=1; done
if has build || { [ ! -x "$K" ] && [ $needs_dev = 1 ]; }; then
    t=$(date +%s)
    { cfg_release "$B" . && cmake --build "$B" -j "$(nproc)" --target all kiln_tests; } >"$OUT/build.log" 2>&1
    rc=$?
    row "build ($B: Release, CUDA, OpenCL)" "$(status $rc), $(since "$t"); $(grep -m1 -o 'OpenCL [A-Z]* ([^,)]*' "$OUT/build.log" | head -1))"
    [ $rc -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
    "$K" devices 2>&1 | head -12 | tee -a "$SUMMARY"
fi
OCL=${OCL_DEVICE:-$([ -x "$K" ] && ocl_gpu)}
[ -n "$OCL" ] && export KILN_TEST_OPENCL_DEVICE=${KILN_TEST_OPENCL_DEVICE:-$OCL}

# ---- test
GPU_TESTS=${GPU_TESTS:-'cuda|device|gpu|mpi|hugediff|closed_fds|signals|interrupt'}
ctest_rows() { # LOG: the counts, then the tests that did not pass (the first 10)
    grep -E 'tests passed' "$1" | tail -1
    grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|Not Run)\)' "$1" |
        awk 'NR <= 10 { print } END { if (NR > 10) print "\t... and " NR - 10 " more" }' | tee -a "$SUMMARY" >&2
}
if [ -n "${TESTS:-}" ] && has test; then
    POOL_VERBOSE=1 KILN_REQUIRE_OPENCL=1 ctest --test-dir "$B" -R "$TESTS" -V --timeout "${TEST_TIMEOUT:-300}" \
        >"$OUT/tests.log" 2>&1
    rc=$?
    row "tests $TESTS (verbose: tests.log)" "$(status $rc), $(ctest_rows "$OUT/tests.log")"
    STEPS=${STEPS/ gpu / }
    STEPS=${STEPS/ suite / }
fi
if has gpu; then
    t=$(date +%s)
    KILN_REQUIRE_OPENCL=1 timeout "${GPU_TIMEOUT:-300}" ctest --test-dir "$B" --output-on-failure -j "$JOBS" \
        -R "$GPU_TESTS" --timeout "${TEST_TIMEOUT:-300}" >"$OUT/gpu.log" 2>&1
    rc=$?
    row "tests touching the GPUs (-j $JOBS)" "$(status $rc), $(ctest_rows "$OUT/gpu.log"), $(since "$t")"
    "$K" selftest --device cuda >"$OUT/selftest.log" 2>&1
    row "kiln selftest --device cuda" "$(status $?), $(tail -1 "$OUT/selftest.log")"
fi
if has suite; then
    t=$(date +%s)
    EXCL=()
    has gpu && EXCL=(-E "$GPU_TESTS")
    [ -n "${SUITE_EXCLUDE:-}" ] && EXCL=(-E "$SUITE_EXCLUDE")
    KILN_REQUIRE_OPENCL=1 timeout "${SUITE_TIMEOUT:-500}" ctest --test-dir "$B" --output-on-failure -j "$JOBS" \
        "${EXCL[@]}" --timeout "${TEST_TIMEOUT:-300}" >"$OUT/suite.log" 2>&1
    rc=$?
    row "the other tests (-j $JOBS)" "$(status $rc), $(ctest_rows "$OUT/suite.log"), $(since "$t")"
    echo "slowest:" >>"$SUMMARY"
    sed -nE 's/.*#[0-9]+: ([^ ]+) .* ([0-9.]+) sec.*/\2 \1/p' "$OUT/suite.log" | sort -rn | head -6 >>"$SUMMARY"
fi

# ---- sanitize
san_row() { # LABEL LOG RC SECONDS-SINCE
    [ "$3" -eq 77 ] && { row "$1" "skipped (no GPU: exit 77)"; return; }
    local sum
    sum=$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$2" | tail -1 | sed 's/^=* *//')
    row "$1" "$(status "$3")${sum:+, $sum}, $(since "$4")"
    [ "$3" -ne 0 ] && grep -m3 -A8 '^========= [A-Z]' "$2"
}
if has sanitize; then
    t=$(date +%s)
    # the programs of the tests labelled gpu (their names change as the tests do), the CLI
    cfg_sanitize >"$OUT/build-san.log" 2>&1
    # (a test's program is its name; ctest names a command only once it is built)
    ctest --test-dir "$S" -L gpu -LE long ${SAN_TESTS:+-R "$SAN_TESTS"} --show-only=json-v1 2>/dev/null |
        python3 -c 'import json, sys
for t in json.load(sys.stdin)["tests"]: print(t["name"])' >"$OUT/san-tests.txt"
    cmake --build "$S" --target help 2>/dev/null | sed -n 's/^\.\.\. //p' | grep -xFf "$OUT/san-tests.txt" >"$OUT/san-programs.txt"
    # shellcheck disable=SC2046 # a target per program
    cmake --build "$S" -j "$(nproc)" --target kiln_cli $(cat "$OUT/san-programs.txt") >>"$OUT/build-san.log" 2>&1
    rc=$?
    row "build ($S: sanitizer)" "$(status $rc), $(since "$t"), $(wc -l <"$OUT/san-programs.txt") test programs"
    [ $rc -ne 0 ] && tail -20 "$OUT/build-san.log"
    CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
    [ -x "$CS" ] || { row "compute-sanitizer" "not found: nothing sanitized"; : >"$OUT/san-programs.txt"; SAN_CLI=0; }
    while read -r name; do
        prog=$S/tests/$name
        [ -x "$prog" ] || continue
        for tool in ${SAN_TOOLS:-memcheck racecheck}; do
            # racecheck where kernels share memory or shuffle (SAN_RACE, a regex of program names)
            [ "$tool" = racecheck ] && ! [[ $name =~ ${SAN_RACE:-merkle|scrypt|pagerank|hash|keccak} ]] && continue
            t=$(date +%s)
            log=$OUT/san-$name-$tool.log
            KILN_TEST_QUICK=1 KILN_TEST_SMALL=1 timeout "${SAN_TIMEOUT:-300}" "$CS" --tool "$tool" --error-exitcode 99 \
                "$prog" >"$log" 2>&1
            rc=$?
            san_row "$tool $name" "$log" $rc "$t"
        done
    done <"$OUT/san-programs.txt"
    if [ "${SAN_CLI:-1}" = 1 ]; then
        FB=tests/data/facebook_combined.txt
        # PageRank's persistent kernel through the CLI: racecheck tracks every shared access, so
        # a few iterations; memcheck three launches' worth
        for spec in "memcheck 1500" "racecheck 4" "synccheck 40"; do
            set -- $spec
            t=$(date +%s)
            log=$OUT/san-pagerank-$1.log
            timeout "${SAN_TIMEOUT:-300}" "$CS" --tool "$1" --error-exitcode 99 "$S/kiln" pagerank "$FB" --device cuda:0 \
                --undirected --tol 0 --max-iter "$2" --gpu-kernel "${SAN_PR_KERNEL:-persistent}" --top 3 >"$log" 2>&1
            rc=$?
            san_row "$1 pagerank ego-Facebook ${SAN_PR_KERNEL:-persistent}" "$log" $rc "$t"
        done
        # the partitioned build and the parts on logical devices, then NCCL on the real set; API
        # errors are not reported, since NCCL probes the driver with calls that fail by design
        for spec in "memcheck cuda:0,0" "memcheck cuda:all" "racecheck cuda:0,0"; do
            set -- $spec
            t=$(date +%s)
            log=$OUT/san-sets-$1-${2//[:,]/_}.log
            timeout "${SAN_TIMEOUT:-300}" "$CS" --tool "$1" --report-api-errors no --error-exitcode 99 "$S/kiln" pagerank \
                --rmat 12 --device "$2" --tol 0 --max-iter 5 >"$log" 2>&1
            rc=$?
            san_row "$1 pagerank --rmat 12 --device $2" "$log" $rc "$t"
        done
    fi
fi

# ---- benches: "build algo unit rate" lines, tabulated as medians with the last column over the first
bench_rows() { # BUILD-NAME KILN DEVICE SPEC
    local secs=()
    case $4 in merkle-* | pagerank) ;; *) [ -n "${BENCH_SECONDS:-}" ] && secs=(--seconds "$BENCH_SECONDS") ;; esac
    timeout "${BENCH_TIMEOUT:-300}" "$2" bench --algo "$4" --device "$3" "${secs[@]}" ${BENCH_ARGS:-} --json --quiet \
        2>>"$OUT/bench.err" | python3 -c 'import json, sys
for line in sys.stdin:
    if not line.strip().startswith("{"): continue
    doc = json.loads(line)
    rows = doc.get("results", [])
    for r in rows if rows and all("algo" in r for r in rows) else [doc]:
        if "rate" in r: print(sys.argv[1], r["algo"], (r.get("unit") or "-").replace(" ", "_"), r["rate"])' "$1"
}
tabulate() { # FILE COLUMN...: a row per algorithm, the median of each column, last/first, rows off by 2% named
    python3 - "$@" <<'PY' | tee -a "$SUMMARY"
import statistics, sys
path, cols = sys.argv[1], sys.argv[2:]
runs, order = {}, []
for line in open(path):
    b, algo, unit, rate = line.split()
    if (algo, unit) not in order: order.append((algo, unit))
    runs.setdefault((algo, unit, b), []).append(float(rate))
ratio = len(cols) > 1
print(f"{'algorithm':<18} {'unit':<8}" + "".join(f" {c:>13}" for c in cols) + (f" {cols[-1] + '/' + cols[0]:>12}" if ratio else ""))
off = []
for algo, unit in order:
    med = [statistics.median(runs[algo, unit, c]) if (algo, unit, c) in runs else None for c in cols]
    line = f"{algo:<18} {unit:<8}" + "".join(f" {m:>13.4g}" if m else f" {'-':>13}" for m in med)
    if ratio and med[0] and med[-1]:
        r = med[-1] / med[0]
        line += f" {r:>12.3f}"
        if abs(r - 1) > 0.02: off.append(f"{algo} {r:.3f}")
    print(line)
if ratio and cols[-1] == "new":
    print(f"{len(order) - len(off)} of {len(order)} rows within 2%" + (": outside: " + ", ".join(off) if off else ""))
PY
}
if has bench; then
    for dev in ${BENCH_DEVICES:-cuda:0}; do
        f=$OUT/bench-${dev//[:,]/_}.txt
        : >"$f"
        for _ in $(seq "$ROUNDS"); do for spec in $SPECS; do bench_rows "$dev" "$K" "$dev" "$spec" >>"$f"; done; done
        row "bench on $dev" "median of $ROUNDS runs"
        tabulate "$f" "$dev"
    done
    # mining through the test pool (tests/pool, on the loopback) on the GPU, beside the bench: the
    # rate a miner gets, which must stay within 5% of kiln bench's
    if [ "${POOL_SECONDS:-20}" != 0 ]; then
        d=$OUT/pool
        rm -rf "$d"
        pd=${POOL_DEVICE:-cuda}
        POOL_DIFFICULTY=${POOL_DIFFICULTY:-0.5} POOL_DURATION=${POOL_SECONDS:-20} POOL_DEVICE=$pd POOL_KEEP=$d \
            bash tests/pool/run_scenario.sh "$K" gpu >"$OUT/pool.log" 2>&1
        rc=$?
        bench=$(bench_rows pool "$K" "$pd" sha256d | cut -d' ' -f4)
        row "pool mining, --device $pd, ${POOL_SECONDS:-20} s" "$(status $rc), $(python3 -c 'import json, sys
k = json.load(open(sys.argv[1]))
print("%.4g H/s, %d shares accepted, pool rate / bench %.3f" % (k["rate"], k["shares"]["accepted"], k["rate"] / float(sys.argv[2])))' \
            "$d/kiln.json" "$bench" 2>/dev/null || tail -1 "$OUT/pool.log")"
    fi
fi

if has compare; then
    t=$(date +%s)
    if [ -n "$base_pid" ]; then wait "$base_pid"; rc=$?
    elif [ -x "$BB/kiln" ]; then rc=0
    else build_base >"$OUT/build-base.log" 2>&1; rc=$?; fi
    row "build ($BB: $(base_src || echo 'built before'))" "$(status $rc), $(since "$t")"
    [ $rc -ne 0 ] && tail -20 "$OUT/build-base.log"
    f=$OUT/compare.txt
    : >"$f"
    if [ $rc -eq 0 ]; then
        for r in $(seq "$ROUNDS"); do
            for spec in $SPECS; do
                # the two builds in turns, the first of each pair alternating between rounds
                if [ $((r % 2)) = 1 ]; then
                    bench_rows base "$BB/kiln" "$CMP_DEVICE" "$spec" >>"$f"; bench_rows new "$K" "$CMP_DEVICE" "$spec" >>"$f"
                else
                    bench_rows new "$K" "$CMP_DEVICE" "$spec" >>"$f"; bench_rows base "$BB/kiln" "$CMP_DEVICE" "$spec" >>"$f"
                fi
            done
        done
        row "compare on $CMP_DEVICE" "medians of $ROUNDS rounds, $(since "$t")"
        tabulate "$f" base new
    fi
fi

# ---- scaling
pr_ms() { # KILN-COMMAND...: "ms-an-iteration kernel exchange" of a PageRank run on RMAT $s, or "- failed"
    "$@" --rmat "$s" --tol 0 --max-iter "${PR_ITERS:-20}" --repeat 3 --json >"$OUT/pr.json" 2>"$OUT/pr.err" &&
        python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%.3f %s %s" % (d["seconds_per_iteration"] * 1e3, d.get("kernel", "-"), d.get("exchange", "-")))' "$OUT/pr.json" 2>/dev/null ||
        echo "- failed: $(tail -1 "$OUT/pr.err")"
}
if has scaling; then
    n=$((NGPU > 0 ? NGPU : 1))
    th=${MPI_THREADS:-$(($(nproc) / n > 0 ? $(nproc) / n : 1))}
    for s in ${SCALES:-26}; do
        printf '%-44s %10s %8s  %s\n' "PageRank RMAT $s, ${PR_ITERS:-20} iterations" ms/iter speedup "kernel exchange" |
            tee -a "$SUMMARY"
        one=
        set_rows=()
        for i in $(seq 1 "$n"); do
            if [ "$i" = "$n" ] && [ "$n" -gt 1 ]; then set_rows+=(cuda:all)
            else set_rows+=("cuda:$(seq -s, 0 $((i - 1)))"); fi
        done
        for dev in "${set_rows[@]}" nccl-off mpirun; do
            case $dev in
            nccl-off) label="cuda:all, KILN_NCCL=0 (peer copies)"; r=$(KILN_NCCL=0 pr_ms "$K" pagerank --device cuda:all) ;;
            mpirun)
                label="mpirun -np $n, $th threads each"
                r=$(pr_ms timeout -k 10 "${MPI_TIMEOUT:-300}" mpirun --allow-run-as-root --oversubscribe --bind-to none \
                    -x NCCL_NVLS_ENABLE -np "$n" "$K" pagerank --device cuda --threads "$th")
                ;;
            *) label="--device $dev"; r=$(pr_ms "$K" pagerank --device "$dev") ;;
            esac
            ms=${r%% *}
            [ -z "$one" ] && one=$ms
            sp=$(python3 -c 'import sys; a, b = sys.argv[1:]; print("%.2fx" % (float(a) / float(b)))' "$one" "$ms" 2>/dev/null || echo -)
            printf '%-44s %10s %8s  %s\n' "$label" "$ms" "$sp" "${r#* }" | tee -a "$SUMMARY"
        done
    done
    f=$OUT/scaling-bench.txt
    : >"$f"
    bench_rows 1-gpu "$K" cuda:0 sha256d >>"$f"
    bench_rows all-gpus "$K" cuda:all sha256d >>"$f"
    # the whole Merkle build from host memory, a subtree per GPU
    BENCH_ARGS="--leaves 2^${MERKLE_LOG2:-26} --whole-build --reps 3" bench_rows 1-gpu "$K" cuda:0 merkle-sha256d >>"$f"
    BENCH_ARGS="--leaves 2^${MERKLE_LOG2:-26} --whole-build --reps 3" bench_rows all-gpus "$K" cuda:all merkle-sha256d >>"$f"
    tabulate "$f" 1-gpu all-gpus
fi

# ---- opencl
if has opencl; then
    row "OpenCL device of the GPU" "${OCL:-none: kiln devices lists no NVIDIA OpenCL device}"
    if [ -n "$OCL" ]; then
        t=$(date +%s)
        KILN_REQUIRE_OPENCL=1 KILN_TEST_OPENCL_DEVICE=$OCL ctest --test-dir "$B" -L opencl -LE long --output-on-failure -j 4 \
            --timeout "${TEST_TIMEOUT:-300}" >"$OUT/opencl-tests.log" 2>&1
        rc=$?
        row "OpenCL tests on $OCL" "$(status $rc), $(ctest_rows "$OUT/opencl-tests.log"), $(since "$t")"
        f=$OUT/opencl-bench.txt
        : >"$f"
        for _ in $(seq "$ROUNDS"); do
            for a in ${OCL_ALGOS:-sha256d scrypt scrypt-kdf sha256 sha3-256 keccak256 sha512 keccakf1600 merkle-sha256d merkle-rp64 pagerank}; do
                bench_rows cuda "$K" cuda:0 "$a" >>"$f"
                bench_rows opencl "$K" "$OCL" "$a" >>"$f"
            done
        done
        tabulate "$f" cuda opencl
    fi
fi

# ---- peers
if has peers; then
    A=$ANCHORS
    for d in "$A" anchors ../shared/anchors shared/anchors; do [ -n "$d" ] && [ -f "$d/run_hashcat.sh" ] && { A=$d; break; }; done
    if [ ! -f "${A:-.}/run_hashcat.sh" ]; then
        row "peers" "no anchors folder (give its path: scripts/device.sh PATH)"
    else
        f=$OUT/peers-kiln.txt
        : >"$f"
        for a in sha256 sha256d sha3-256 keccak256 scrypt scrypt-kdf; do bench_rows kiln "$K" cuda:0 "$a" >>"$f"; done
        HC_BACKEND=${HC_BACKEND:-cuda} HC_MODES="${HC_MODES:-1400 21400 17400 17800 8900}" HC_VARIANTS="${HC_VARIANTS:-default scrypt1k}" \
            HC_BUDGET_S="${HC_BUDGET_S:-300}" timeout 400 bash "$A/run_hashcat.sh" "$OUT/hashcat" >"$OUT/hashcat.log" 2>&1
        printf '%-34s %14s %-10s %14s %10s\n' "hashcat 6.2.6 (${HC_BACKEND:-cuda}) -m" "H/s" "kiln" "H/s" kiln/peer | tee -a "$SUMMARY"
        # hashcat's mode and variant -> kiln's bench: -m 8900's own benchmark is N=16384 r=8 p=1
        # (kiln's scrypt-kdf), its scrypt1k variant Litecoin's N=1024 r=1 p=1 (kiln's scrypt)
        grep HC_RESULT "$OUT/hashcat.log" | python3 -c 'import re, sys
kiln = {}
for line in open(sys.argv[1]):
    b, algo, unit, rate = line.split()
    kiln[algo] = float(rate)
names = {("1400", "default"): "sha256", ("21400", "default"): "sha256d", ("17400", "default"): "sha3-256",
         ("17800", "default"): "keccak256", ("8900", "default"): "scrypt-kdf", ("8900", "scrypt1k"): "scrypt"}
for line in sys.stdin:
    f = dict(re.findall(r"(\w+)=(\S+)", line))
    algo = names.get((f.get("mode"), f.get("variant")))
    if not algo: continue
    try: peer = float(f["speed_Hps"])
    except (KeyError, ValueError): peer = None
    k = kiln.get(algo)
    print("%-34s %14s %-10s %14s %10s" % (f["mode"] + " " + f["variant"], "%.4g" % peer if peer else f.get("speed_Hps"),
          algo, "%.4g" % k if k else "-", "%.3f" % (k / peer) if k and peer else "-"))' "$f" | tee -a "$SUMMARY"
        FB=tests/data/facebook_combined.txt
        PYTHONUNBUFFERED=1 timeout 360 python3 "$A/pagerank_cupy.py" --scales "$(echo "${PEER_SCALES:-22 24 26}" | tr ' ' ,)" \
            --iters 20 --reps 5 --facebook "$FB" --cpu-ref-scale 0 --budget-s 280 >"$OUT/pagerank-cupy.log" 2>&1
        printf '%-34s %14s %14s %10s\n' "PageRank, ms" cuSPARSE kiln cuSPARSE/kiln | tee -a "$SUMMARY"
        for s in ${PEER_SCALES:-22 24 26}; do
            peer=$(sed -nE "s/^PR_RESULT scale=$s .*t_iter_ms=([0-9.]+).*/\1/p" "$OUT/pagerank-cupy.log")
            k=$(pr_ms "$K" pagerank --device cuda:0)
            k=${k%% *}
            printf '%-34s %14s %14s %10s\n' "RMAT $s, an iteration" "${peer:--}" "$k" \
                "$(python3 -c 'import sys; print("%.3f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$peer" "$k" 2>/dev/null || echo -)" |
                tee -a "$SUMMARY"
        done
        peer=$(sed -nE 's/^PR_FACEBOOK .*total_ms=([0-9.]+).*/\1/p' "$OUT/pagerank-cupy.log")
        k=$("$K" pagerank "$FB" --undirected --tol 0 --max-iter 1000 --repeat 5 --json --quiet 2>/dev/null |
            python3 -c 'import json, sys; print("%.2f" % (json.load(sys.stdin)["seconds"] * 1e3))' 2>/dev/null || echo -)
        printf '%-34s %14s %14s %10s\n' "ego-Facebook, 1000 iterations" "${peer:--}" "$k" \
            "$(python3 -c 'import sys; print("%.3f" % (float(sys.argv[1]) / float(sys.argv[2])))' "$peer" "$k" 2>/dev/null || echo -)" |
            tee -a "$SUMMARY"
    fi
fi

# ---- data (issue 38)
if has data; then
    t=$(date +%s)
    EX=$(cmake --build "$B" --target help 2>/dev/null | grep -o 'example_cuda_leaves' | head -1)
    { cmake --build "$B" -j "$(nproc)" --target kiln_shared $EX &&
        gcc -O2 -std=c11 -Wall -Wextra -Iinclude -I/usr/local/cuda/include -o "$B/data_path_bench" \
            experiments/data_path_bench.c -L"$B/src" -Wl,-rpath,"$ROOT/$B/src" -lkiln -L/usr/local/cuda/lib64 \
            -Wl,-rpath,/usr/local/cuda/lib64 -lcudart; } >"$OUT/build-data.log" 2>&1
    rc=$?
    row "build (data_path_bench, cuda_leaves)" "$(status $rc), $(since "$t")"
    [ $rc -ne 0 ] && tail -20 "$OUT/build-data.log"
    E=$(find "$B" -name cuda_leaves -type f -perm -u+x | head -1)
    if [ -n "$E" ]; then
        timeout 120 "$E" $((1 << 22)) >"$OUT/example.log" 2>&1
        row "examples/cuda_leaves 2^22 leaves" "$(status $?), $(tr '\n' ' ' <"$OUT/example.log" | cut -c1-80)"
    fi
    if python3 -c 'import cupy; cupy.cuda.runtime.getDeviceCount()' >/dev/null 2>&1; then
        P=$B-py
        { cmake -S python -B "$P" -DCMAKE_BUILD_TYPE=Release -DKILN_BUILD_DIR="$ROOT/$B" &&
            cmake --build "$P" -j "$(nproc)" --target _kiln && rm -rf "$P/pkg" && mkdir -p "$P/pkg" &&
            cp -r python/kiln "$P/pkg/" && cp "$P"/_kiln*.so "$P/pkg/kiln/" &&
            PYTHONPATH=$ROOT/$P/pkg timeout 300 python3 -m pytest -q python/tests/test_device_arrays.py; } >"$OUT/python.log" 2>&1
        row "python/tests/test_device_arrays.py (CuPy)" "$(status $?), $(tail -1 "$OUT/python.log")"
    else
        row "python/tests/test_device_arrays.py" "skipped: no CuPy with a GPU"
    fi
    if [ -x "$B/data_path_bench" ]; then
        XDG_CACHE_HOME=$(mktemp -d) timeout 300 "$B/data_path_bench" 26 24 >"$OUT/data-path.log" 2>"$OUT/data-path.err"
        rc=$?
        printf '%-66s %9s %8s %9s  %s\n' "path (issue 38), cuda:0" ms GB/s fraction note | tee -a "$SUMMARY"
        grep '^ROW ' "$OUT/data-path.log" | sed 's/^ROW //' | while IFS='|' read -r name ms gbs frac note; do
            printf '%-66s %9s %8s %9s  %s\n' "$name" "$ms" "$gbs" "$frac" "$note"
        done | tee -a "$SUMMARY"
        [ $rc -ne 0 ] && row "data_path_bench" "$(status $rc): $(tail -2 "$OUT/data-path.err" | tr '\n' ' ')"
    fi
fi

# ---- parse (issue 38 item 5, CPU only)
if has parse; then
    P=$B/tests/test_graph_parse_parallel
    FILE=${FILE:-/tmp/kiln-snap-bench.txt}
    THREADS=${THREADS:-"1 4 16"}
    [ -x "$P" ] || cmake --build "$B" -j "$(nproc)" --target test_graph_parse_parallel >"$OUT/build-parse.log" 2>&1
    [ -s "$FILE" ] || "$P" --gen "$FILE" "${MIB:-10240}" >"$OUT/parse.log" 2>&1
    cat "$FILE" >/dev/null
    TIMEFORMAT=%R
    row "cat of $(stat -c %s "$FILE") bytes (warm)" "$( { time cat "$FILE" >/dev/null; } 2>&1) s"
    "$P" --bench "$FILE" $THREADS 2>&1 | tee -a "$OUT/parse.log" "$SUMMARY"
    last=${THREADS##* }
    KILN_BENCH_CACHE="${FILE%.txt}.csr" "$P" --load "$FILE" "$last" 2>&1 | tee -a "$OUT/parse.log" "$SUMMARY"
    rm -f "${FILE%.txt}.csr"
    # the same load with the CSR built on the GPU, as kiln pagerank --device cuda:0 loads it
    KILN_BENCH_DEVICE=cuda:0 "$P" --load "$FILE" "$last" 2>&1 | tee -a "$OUT/parse.log" "$SUMMARY"
    # shellcheck disable=SC2002 # through a pipe: the serial parser, the one a pipe gets
    cat "$FILE" | "$P" --load - "$last" 2>&1 | tee -a "$OUT/parse.log" "$SUMMARY"
fi
rm -rf "$ICD"
row "total" "$(since "$T0")"
