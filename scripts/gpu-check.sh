#!/usr/bin/env bash
# GPU check, run on the machine with the GPU from the repository root:
#   configure + build (Release, CUDA on), every test (the GPU ones included), compute-sanitizer on
#   the GPU tests (quick mode), the CLI on the GPU (selftest, mine --demo, bench, tune, bench with
#   the tuned shape), SASS instruction counts of the kernels, clocks; optionally peers (hashcat)
#   and builds of kernel variants. A short table is printed last; logs go to $OUT (else ./out).
#
# Environment:
#   OUT                      where logs go (at most 8 files: build.log tests.log cli.log sass.txt
#                            variants.log hashcat.log summary.txt and the tune cache)
#   KILN_GPU_BUILD           build directory (build-gpu)
#   KILN_GPU_SKIP            steps to skip, space-separated: ctest sanitizer cli tune sass
#   KILN_GPU_VARIANTS        "ADDS:MULROT:ILP:KW:MAXNREG ..." extra builds of the sha256d kernel
#                            with those knobs (see src/cuda/sha256d_scan.cu), each checked with
#                            the GPU test (quick mode) and tuned
#   KILN_GPU_NCU=1           profile one sha256d launch with Nsight Compute (stall reasons, pipe
#                            utilization; appended to sass.txt)
#   KILN_GPU_HASHCAT         path of the anchors folder (see /work/shared/anchors/README.md, with
#                            pkgs/ fetched): runs hashcat -b for modes 21400 and 1400 for a ratio
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/out}
mkdir -p "$OUT"
B=${KILN_GPU_BUILD:-build-gpu}
SKIP=" ${KILN_GPU_SKIP:-} "
JOBS=$(nproc 2>/dev/null || echo 4)
export PATH="$PATH:/usr/local/cuda/bin:/usr/local/nvidia/bin"
SUMMARY=$OUT/summary.txt
: >"$SUMMARY"
T0=$(date +%s)

row() { printf '%-34s %s\n' "$1" "$2" >>"$SUMMARY"; }
note() { echo "[gpu-check +$(($(date +%s) - T0))s] $*"; }
skip() { case "$SKIP" in *" $1 "*) return 0 ;; esac; return 1; }
status() { [ "$1" -eq 0 ] && echo ok || echo "FAILED (exit $1)"; }

# ---- machine
{
    nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu \
        --format=csv 2>&1
    nvcc --version | grep -i release
} >"$OUT/cli.log" 2>&1
row "gpu" "$(nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)"

# ---- build
note "configure + build in $B"
{
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON && cmake --build "$B" -j "$JOBS"
} >"$OUT/build.log" 2>&1
rc=$?
row "build (Release, CUDA)" "$(status $rc)"
if [ $rc -ne 0 ]; then
    tail -40 "$OUT/build.log"
    cat "$SUMMARY"
    exit 1
fi
KILN=$B/kiln
GPUTEST=$B/tests/test_cuda_sha256d

# ---- tests
: >"$OUT/tests.log"
if ! skip ctest; then
    note "ctest"
    t=$(date +%s)
    ctest --test-dir "$B" --output-on-failure -V >>"$OUT/tests.log" 2>&1
    rc=$?
    row "ctest (all, GPU included)" "$(status $rc), $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tail -1), $(($(date +%s) - t)) s"
fi
if ! skip sanitizer; then
    for tool in ${KILN_GPU_SANITIZERS:-memcheck racecheck initcheck}; do
        note "compute-sanitizer $tool"
        t=$(date +%s)
        echo "==== compute-sanitizer --tool $tool (KILN_TEST_QUICK=1)" >>"$OUT/tests.log"
        KILN_TEST_QUICK=1 compute-sanitizer --tool $tool --error-exitcode 99 "$GPUTEST" >>"$OUT/tests.log" 2>&1
        rc=$?
        row "compute-sanitizer $tool" "$(status $rc), $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/tests.log" | tail -1 | sed 's/^=* *//'), $(($(date +%s) - t)) s"
    done
fi

# ---- CLI on the GPU
bench_json() { # $1 = kiln binary; prints "rate tpb ipt"
    "$1" bench --algo sha256d --device cuda --json 2>&1 | tee -a "$OUT/cli.log" |
        sed -n 's/.*"rate": \([0-9]*\).*"threads_per_block": \([0-9]*\), "items_per_thread": \([0-9]*\).*/\1 \2 \3/p'
}
ghs() { awk -v r="$1" 'BEGIN { printf "%.3f", r / 1e9 }'; }
RATE=""
CLK=""
if ! skip cli; then
    export XDG_CACHE_HOME=$OUT/cache
    rm -rf "$XDG_CACHE_HOME"
    note "selftest, mine --demo"
    {
        echo "==== kiln selftest --device cuda"
        "$KILN" selftest --device cuda
        echo "exit $?"
    } >>"$OUT/cli.log" 2>&1
    row "kiln selftest --device cuda" "$(tail -1 "$OUT/cli.log")"
    t=$(date +%s)
    {
        echo "==== kiln mine --demo --device cuda"
        "$KILN" mine --demo --device cuda
        echo "exit $?"
    } >>"$OUT/cli.log" 2>&1
    row "kiln mine --demo --device cuda" "$(tail -1 "$OUT/cli.log"), $(grep -m1 -o 'nonce=[0-9]*' "$OUT/cli.log"), $(($(date +%s) - t)) s"

    note "bench (default shape) with the clocks sampled"
    echo "==== kiln bench --algo sha256d --device cuda --json (no tune cache)" >>"$OUT/cli.log"
    nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader,nounits -lms 250 >/tmp/kiln-clocks.csv 2>/dev/null &
    smi=$!
    set -- $(bench_json "$KILN")
    kill $smi 2>/dev/null
    wait $smi 2>/dev/null
    RATE=${1:-0}
    CLK=$(awk -F', ' '$1 > 1000 { s += $1; n++ } END { if (n) printf "%.0f", s / n }' /tmp/kiln-clocks.csv)
    PWR=$(awk -F', ' '$1 > 1000 { if ($2 > m) m = $2 } END { printf "%.0f", m }' /tmp/kiln-clocks.csv)
    { echo "clocks during bench (MHz, W, C):"; sort /tmp/kiln-clocks.csv | uniq -c | sort -rn | head -8; } >>"$OUT/cli.log"
    row "bench sha256d, default shape" "$(ghs "$RATE") GH/s (tpb ${2:-?} x npt ${3:-?}); SM clock ${CLK:-?} MHz, max ${PWR:-?} W"

    if ! skip tune; then
        note "tune"
        t=$(date +%s)
        echo "==== kiln tune --algo sha256d --device cuda" >>"$OUT/cli.log"
        "$KILN" tune --algo sha256d --device cuda >>"$OUT/cli.log" 2>&1
        row "kiln tune" "$(status $?), $(grep '^best:' "$OUT/cli.log" | tail -1 | sed 's/best: //'), $(($(date +%s) - t)) s"
        cat "$XDG_CACHE_HOME/kiln/tune.txt" >>"$OUT/cli.log" 2>&1
        echo "==== kiln bench after tune (uses the cache)" >>"$OUT/cli.log"
        set -- $(bench_json "$KILN")
        TRATE=${1:-0}
        row "bench sha256d, tuned shape" "$(ghs "$TRATE") GH/s (tpb ${2:-?} x npt ${3:-?})"
        awk -v a="$TRATE" -v b="$RATE" 'BEGIN { exit !(a > b) }' && RATE=$TRATE
    fi
fi

# ---- SASS: instructions per nonce of the kernels, and the fraction of the integer issue ceiling
if ! skip sass; then
    note "SASS"
    OBJ=$B/src/libkiln.a
    cuobjdump -sass "$OBJ" >/tmp/kiln.sass 2>&1
    # per kernel: the instructions between the first and the last LOP3/SHF (the hash body; loop
    # overhead included), and an opcode histogram; G nonces share one body when interleaved
    awk '
        /Function :/ { name = $3; next }
        name != "" && /^ +\/\*[0-9a-f]+\*\// {
            line = $0; sub(/^ +\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
            split(line, a, /[ ;]/); op = a[1]; n[name]++; ops[name, n[name]] = op
        }
        END {
            for (k in n) {
                first = 0; last = 0
                for (i = 1; i <= n[k]; i++) if (ops[k, i] ~ /^(LOP3|SHF)/) { if (!first) first = i; last = i }
                delete h; body = last - first + 1
                for (i = first; i <= last; i++) h[ops[k, i]]++
                printf "kernel %s: %d instructions, hash body %d\n", k, n[k], body
                for (o in h) printf "    %6d %s\n", h[o], o
            }
        }' /tmp/kiln.sass >"$OUT/sass.txt"
    # the NPT=1 instance has one nonce per body
    k1=$(grep -o 'kernel [^ ]*sha256d_scan_kernelILi1ELi1E[^ ]*:.*' "$OUT/sass.txt" | head -1)
    BODY=$(echo "$k1" | sed -n 's/.*hash body \([0-9]*\).*/\1/p')
    row "SASS instructions per nonce" "${BODY:-?} (sha256d_scan_kernel<1,1> body)"
    # ALU-pipe instructions of that body (LOP3, shifts, IADD3, PRMT, compares): the binding pipe
    ALU=$(awk '/^kernel / { f = index($0, "sha256d_scan_kernelILi1ELi1E") > 0; next }
               f && $2 ~ /^(LOP3|SHF|IADD3|PRMT|ISETP|SEL|LEA|FLO|POPC|PLOP3)/ { n += $1 } END { print n + 0 }' "$OUT/sass.txt")
    row "  of which ALU pipe" "$ALU (LOP3, SHF, IADD3, ...; the rest IMAD/VIADD on the multiply pipe)"
    if [ -n "${BODY:-}" ] && [ -n "$RATE" ] && [ -n "$CLK" ]; then
        SMS=$(nvidia-smi --query-gpu=name --format=csv,noheader | grep -q H200 && echo 132 || echo 132)
        row "fraction of issue ceiling" "$(awk -v r="$RATE" -v b="$BODY" -v c="$CLK" -v s="$SMS" 'BEGIN {
            printf "%.1f%% (%.3g warp-instr/s of %d SMs x 4 x %s MHz)", 100 * r * b / 32 / (s * 4 * c * 1e6), r * b / 32, s, c }')"
        row "fraction of ALU-pipe ceiling" "$(awk -v r="$RATE" -v a="$ALU" -v c="$CLK" -v s="$SMS" 'BEGIN {
            printf "%.1f%% (one ALU warp-instr per 2 clocks per scheduler: %.2f GH/s at this mix)", 100 * r * a / 32 / (s * 2 * c * 1e6), s * 2 * c * 1e6 * 32 / a / 1e9 }')"
    fi
fi

# ---- Nsight Compute: where the issue slots go (clocks left alone: --clock-control none)
if [ "${KILN_GPU_NCU:-0}" = 1 ]; then
    note "ncu"
    {
        echo "==== ncu on the first launch of kiln mine --demo --count 2^28"
        timeout 300 ncu --clock-control none -k regex:sha256d_scan_kernel -c 1 \
            --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats \
            --metrics smsp__inst_executed.sum,sm__pipe_alu_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fmaheavy_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fmaheavy.avg.pct_of_peak_sustained_active,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_elapsed.avg.per_second \
            "$KILN" mine --demo --device cuda --start 0 --count 268435456
    } >>"$OUT/sass.txt" 2>&1
    row "ncu issue active" "$(grep -E 'smsp__issue_active' "$OUT/sass.txt" | tail -1 | awk '{print $NF}')%"
    row "ncu ALU / FMA pipe cycles active" "$(grep -E 'sm__pipe_alu_cycles_active' "$OUT/sass.txt" | tail -1 | awk '{print $NF}')% / $(grep -E 'sm__pipe_fma_cycles_active' "$OUT/sass.txt" | tail -1 | awk '{print $NF}')%"
fi

# ---- kernel variants: separate builds with other knobs, each tuned
if [ -n "${KILN_GPU_VARIANTS:-}" ]; then
    note "variants: $KILN_GPU_VARIANTS"
    : >"$OUT/variants.log"
    for v in $KILN_GPU_VARIANTS; do
        IFS=: read -r adds mulrot ilp kw nreg <<<"$v"
        d=build-var-$adds-$mulrot-$ilp-$kw-${nreg:-0}
        (cmake -S . -B "$d" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DCMAKE_CUDA_ARCHITECTURES=90-real \
            "-DCMAKE_CUDA_FLAGS=-DKILN_SHA256D_ADDS=$adds -DKILN_SHA256D_MULROT=$mulrot -DKILN_SHA256D_ILP=$ilp -DKILN_SHA256D_KW=$kw -DKILN_SHA256D_MAXNREG=${nreg:-0}" &&
            cmake --build "$d" -j 4 --target kiln_cli test_cuda_sha256d) >"/tmp/$d.log" 2>&1 &
    done
    wait
    for v in $KILN_GPU_VARIANTS; do
        IFS=: read -r adds mulrot ilp kw nreg <<<"$v"
        d=build-var-$adds-$mulrot-$ilp-$kw-${nreg:-0}
        echo "==== variant ADDS=$adds MULROT=$mulrot ILP=$ilp KW=$kw MAXNREG=${nreg:-0}" >>"$OUT/variants.log"
        if [ ! -x "$d/kiln" ]; then
            tail -20 "/tmp/$d.log" >>"$OUT/variants.log"
            row "variant $v" "build FAILED"
            continue
        fi
        cuobjdump -sass "$d/src/libkiln.a" | awk '/Function :/ { f = index($0, "ILi1ELi1E") > 0 } f && /^ +\/\*[0-9a-f]+\*\// { n++ } END { print "SASS instructions of <1,1>:", n }' >>"$OUT/variants.log"
        KILN_TEST_QUICK=1 "$d/tests/test_cuda_sha256d" >>"$OUT/variants.log" 2>&1
        trc=$?
        XDG_CACHE_HOME=/tmp/$d-cache "$d/kiln" tune --algo sha256d --device cuda --seconds 0.2 >>"$OUT/variants.log" 2>&1
        best=$(grep '^best:' "$OUT/variants.log" | tail -1 | sed 's/best: //')
        row "variant $v (tuned)" "$best; quick GPU test $(status $trc)"
    done
fi

# ---- pipe microbenchmark (a source outside the repository, given by path)
if [ -n "${KILN_GPU_PIPEBENCH:-}" ] && [ -f "$KILN_GPU_PIPEBENCH" ]; then
    note "pipe microbenchmark"
    nvcc -O3 -arch=sm_90 -o /tmp/pipebench "$KILN_GPU_PIPEBENCH" && /tmp/pipebench "${CLK:-1980}" >>"$OUT/variants.log" 2>&1
    grep '^PIPE' "$OUT/variants.log" | sed 's/^PIPE //' | while read -r line; do row "pipe" "$line"; done
fi

# ---- peers
if [ -n "${KILN_GPU_HASHCAT:-}" ] && [ -f "$KILN_GPU_HASHCAT/run_hashcat.sh" ]; then
    note "hashcat anchors"
    HC_BUDGET_S=${HC_BUDGET_S:-240} HC_MODES="21400 1400" HC_VARIANTS=default bash "$KILN_GPU_HASHCAT/run_hashcat.sh" /tmp/kiln-hc >"$OUT/hashcat.log" 2>&1
    for m in 21400 1400; do
        r=$(grep HC_RESULT "$OUT/hashcat.log" | grep -E "mode=$m( |$)" | sed -n 's/.*speed_Hps=\([0-9.e+]*\).*/\1/p' | head -1)
        [ -n "$r" ] || continue
        row "hashcat -m $m" "$(ghs "$r") GH/s; kiln sha256d / this = $(awk -v a="${RATE:-0}" -v b="$r" 'BEGIN { printf "%.3f", a / b }')"
    done
fi

nvidia-smi --query-gpu=clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv >>"$OUT/cli.log" 2>&1
note "done"
echo "================ summary"
cat "$SUMMARY"
