#!/usr/bin/env bash
# PageRank's small graphs on the GPU machine, in one call: this tree and BASE_TAR (an archive of
# an earlier commit) built side by side (Release, CUDA, sm_90), the PageRank GPU tests, then
# compute-sanitizer (memcheck, racecheck, synccheck) on the persistent kernel through the CLI, then
# a table of milliseconds: ego-Facebook 1000 iterations and RMAT 14/16/18 (100 iterations) on the
# base build's default, this build's grid kernel (a launch an iteration) and its persistent kernel,
# ROUNDS rounds alternating, medians of each run's --repeat 5 median; and the large-graph bench
# (kiln bench --algo pagerank, RMAT 22) of both builds, which the persistent kernel must leave as
# it was. Environment: BASE_TAR, ROUNDS (3), STEPS ("build test sanitize time"). Output in $OUT.
set -u
export LC_ALL=C
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
ROUNDS=${ROUNDS:-3}
STEPS=${STEPS:-"build test sanitize time"}
has() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
T0=$(date +%s)
say() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }
FB=tests/data/facebook_combined.txt

if has build; then
    cmake -S . -B build-pr -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
        -DKILN_WERROR=OFF >"$OUT/build.log" 2>&1 && cmake --build build-pr -j "$(nproc)" >>"$OUT/build.log" 2>&1 &
    p=$!
    rb=0
    if [ -n "${BASE_TAR:-}" ]; then
        mkdir -p base && tar xf "$BASE_TAR" -C base
        { cmake -S base -B build-base -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=OFF \
            -DCMAKE_CUDA_ARCHITECTURES=90-real -DKILN_WERROR=OFF && cmake --build build-base -j "$(nproc)" --target kiln_cli; } \
            >"$OUT/build-base.log" 2>&1
        rb=$?
    fi
    wait $p
    rn=$?
    say "build: new $rn, base $rb"
    [ $rn -ne 0 ] && { tail -30 "$OUT/build.log"; exit 1; }
fi
K=build-pr/kiln

if has test; then
    ctest --test-dir build-pr -R pagerank --output-on-failure -j 2 >"$OUT/tests.log" 2>&1
    say "PageRank tests: $(grep -E 'tests passed|tests failed' "$OUT/tests.log" | tail -1)"
    grep -E "FAIL|\*\*\*Failed" "$OUT/tests.log" | head -20
fi

if has sanitize; then
    for t in "memcheck 1500" "racecheck 4" "synccheck 40"; do
        set -- $t
        timeout 240 compute-sanitizer --tool "$1" --error-exitcode 99 $K pagerank "$FB" --undirected --tol 0 \
            --max-iter "$2" --gpu-kernel persistent --top 3 >"$OUT/sanitizer-$1.log" 2>&1
        say "compute-sanitizer $1 ($2 iterations, persistent): rc $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$OUT/sanitizer-$1.log" | tr '\n' ' ')"
    done
fi

ms() { # ms KILN ARGS...: the run's median loop in milliseconds, or nan
    timeout 120 "$@" --json --quiet --repeat 5 2>>"$OUT/time.err" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % (d["seconds"] * 1e3), d.get("kernel"))' 2>>"$OUT/time.err" ||
        echo "nan -"
}
median() { python3 -c 'import sys,statistics as s; v=[float(x) for x in sys.argv[1:] if x!="nan"]; print("%.4f" % s.median(v) if v else "nan")' "$@"; }
if has time; then
    printf '%-28s %12s %12s %12s %10s %10s\n' graph base new-grid new-persist persist/grid persist/base | tee -a "$OUT/summary.txt"
    for g in "ego-Facebook 1000 it|$FB --undirected --tol 0 --max-iter 1000" "RMAT 14, 100 it|--rmat 14 --tol 0 --max-iter 100" \
        "RMAT 16, 100 it|--rmat 16 --tol 0 --max-iter 100" "RMAT 18, 100 it|--rmat 18 --tol 0 --max-iter 100"; do
        name=${g%%|*}
        args=${g#*|}
        b=() n=() p=()
        for _ in $(seq "$ROUNDS"); do
            [ -x build-base/kiln ] && b+=("$(ms build-base/kiln pagerank $args --device cuda:0 | cut -d' ' -f1)")
            n+=("$(ms $K pagerank $args --device cuda:0 --gpu-kernel grid | cut -d' ' -f1)")
            r=$(ms $K pagerank $args --device cuda:0)
            p+=("${r%% *}")
            echo "$name auto: $r" >>"$OUT/time.log"
        done
        mb=$( [ ${#b[@]} -gt 0 ] && median "${b[@]}" || echo nan)
        mn=$(median "${n[@]}")
        mp=$(median "${p[@]}")
        rat() { python3 -c "import sys; a,b=sys.argv[1:]; print('%.3f' % (float(a)/float(b)) if 'nan' not in (a,b) else '-')" "$1" "$2"; }
        printf '%-28s %12s %12s %12s %10s %10s\n' "$name" "$mb" "$mn" "$mp" "$(rat "$mp" "$mn")" "$(rat "$mp" "$mb")" |
            tee -a "$OUT/summary.txt"
    done
    tail -4 "$OUT/time.log"
    for _ in $(seq "$ROUNDS"); do
        for k in build-base/kiln $K; do
            [ -x $k ] || continue
            echo "$k $(timeout 120 $k bench --algo pagerank --device cuda:0 --json --quiet 2>>"$OUT/time.err" |
                python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("edges_per_second") or d)')" | tee -a "$OUT/summary.txt"
        done
    done
fi
say "done"
