#!/usr/bin/env bash
# Issue 28's rows on the GPU machine, beside their peers in the same lease. Steps (STEPS, in order):
#   build    this tree (build-pr, whole: tests too), BASE_TAR's (build-base, the CLI) and, with
#            EXP_PATCH (a patch to this tree that must not be committed: an experiment), that
#            tree's CLI (build-exp); all Release, CUDA, sm_90
#   small    scripts/gpu-pagerank-small.sh on those builds: PageRank tests, compute-sanitizer on the
#            persistent kernel, the small-graph table (ego-Facebook 1000 iterations, RMAT 14-18)
#   large    PageRank RMAT SCALES (22 24 26), 20 iterations, ms an iteration: base and this build
#            alternating ROUNDS times, then the experiment's build with each EXP_ENV setting
#   peers    the cuSPARSE route (anchors/pagerank_cupy.py) on the same scales and ego-Facebook
#   kdf      `kiln tune --algo scrypt-kdf` (N=16384 r=8 p=1), then hashcat -m 8900 (anchors/)
#   compare  scripts/bench-compare.sh base against this build, every bench, ROUNDS rounds
# Every step but kdf's tune runs with an empty tune cache, so the builds' defaults are measured.
# Output in $OUT (summary.txt has the tables). Environment: STEPS, BASE_TAR, EXP_PATCH, EXP_ENV
# (space-separated VAR=value settings for the experiment, one run each), SCALES, ROUNDS (2).
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
# an empty tune cache: the builds' own defaults are measured (kdf tunes into one of its own)
export XDG_CACHE_HOME=$(mktemp -d)
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
STEPS=${STEPS:-"build small large"}
SCALES=${SCALES:-"22 24 26"}
ROUNDS=${ROUNDS:-2}
has() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }
T0=$(date +%s)
say() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/summary.txt"; }
CM="-DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_OPENCL=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real -DKILN_WERROR=OFF"
say "$(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | head -1)"

if has build; then
    { cmake -S . -B build-pr $CM && cmake --build build-pr -j "$(nproc)"; } >"$OUT/build.log" 2>&1 &
    pn=$!
    pb=
    if [ -n "${BASE_TAR:-}" ]; then
        mkdir -p base && tar xf "$BASE_TAR" -C base
        { cmake -S base -B build-base $CM && cmake --build build-base -j "$(nproc)" --target kiln_cli; } >"$OUT/build-base.log" 2>&1 &
        pb=$!
    fi
    pe=
    if [ -n "${EXP_PATCH:-}" ]; then
        rm -rf exp && mkdir exp && tar cf - --exclude=./.git --exclude='./build-*' --exclude=./base --exclude=./exp --exclude=./out --exclude=./anchors . | tar xf - -C exp &&
            patch -d exp -p1 <"$EXP_PATCH" >"$OUT/exp-patch.log" 2>&1 &&
            { cmake -S exp -B build-exp $CM && cmake --build build-exp -j "$(nproc)" --target kiln_cli; } >"$OUT/build-exp.log" 2>&1 &
        pe=$!
    fi
    wait $pn; rn=$?
    rb=-; [ -n "$pb" ] && { wait $pb; rb=$?; }
    re=-; [ -n "$pe" ] && { wait $pe; re=$?; }
    say "build: new $rn, base $rb, experiment $re"
    [ "$rn" -ne 0 ] && { grep -E "error" "$OUT/build.log" | head -20; exit 1; }
    [ "$re" != 0 ] && [ "$re" != - ] && { cat "$OUT/exp-patch.log"; grep -E "error" "$OUT/build-exp.log" | head; }
fi
K=build-pr/kiln

if has small; then
    OUT=$OUT/small ROUNDS=3 STEPS="test sanitize time" bash scripts/gpu-pagerank-small.sh
    cat "$OUT/small/summary.txt" >>"$OUT/summary.txt"
fi

ms_it() { # KILN ARGS...: ms an iteration (the run's median of --repeat 5), or nan
    timeout 180 "$@" --json --quiet --repeat 5 2>>"$OUT/large.err" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % (d["seconds"] * 1e3 / d["iterations"]))' 2>>"$OUT/large.err" ||
        echo nan
}
median() { python3 -c 'import sys,statistics as s; v=[float(x) for x in sys.argv[1:] if x!="nan"]; print("%.4f" % s.median(v) if v else "nan")' "$@"; }
if has large; then
    say "large graphs, float32, 20 iterations, ms an iteration (median of $ROUNDS runs' medians)"
    printf '%-8s %10s %10s %8s  %s\n' graph base new new/base "experiment settings: ms" | tee -a "$OUT/summary.txt"
    for s in $SCALES; do
        b=() n=()
        for _ in $(seq "$ROUNDS"); do
            [ -x build-base/kiln ] && b+=("$(ms_it build-base/kiln pagerank --rmat "$s" --tol 0 --max-iter 20 --device cuda:0)")
            n+=("$(ms_it $K pagerank --rmat "$s" --tol 0 --max-iter 20 --device cuda:0)")
        done
        mb=$([ ${#b[@]} -gt 0 ] && median "${b[@]}" || echo nan)
        mn=$(median "${n[@]}")
        ex=""
        if [ -x build-exp/kiln ]; then
            for e in ${EXP_ENV:-}; do
                ex="$ex $e: $(env "$e" KILN_EXP_SCALE="$s" build-exp/kiln pagerank --rmat "$s" --tol 0 --max-iter 20 --device cuda:0 --json --quiet --repeat 5 2>>"$OUT/large.err" |
                    python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.4f" % (d["seconds"] * 1e3 / d["iterations"]))' 2>>"$OUT/large.err" || echo nan);"
            done
        fi
        printf '%-8s %10s %10s %8s  %s\n' "RMAT $s" "$mb" "$mn" \
            "$(python3 -c "import sys; a,b=sys.argv[1:]; print('%.3f' % (float(b)/float(a)) if 'nan' not in (a,b) else '-')" "$mb" "$mn")" \
            "$ex" | tee -a "$OUT/summary.txt"
    done
    tail -3 "$OUT/large.err" 2>/dev/null
fi

if has peers; then
    say "cuSPARSE route (anchors/pagerank_cupy.py), scales $SCALES and ego-Facebook"
    PYTHONUNBUFFERED=1 timeout 300 python3 anchors/pagerank_cupy.py --scales "$(echo $SCALES | tr ' ' ,)" --iters 20 --reps 5 \
        --facebook tests/data/facebook_combined.txt --cpu-ref-scale 0 --budget-s 280 >"$OUT/anchor.log" 2>&1
    grep -E "^PR_(BW|FACEBOOK|GRAPH|RESULT|CHECK|SKIP|FAIL)" "$OUT/anchor.log" | tee -a "$OUT/summary.txt"
fi

if has kdf; then
    say "scrypt KDF N=16384 r=8 p=1: kiln tune, then hashcat -m 8900"
    XDG_CACHE_HOME=$(mktemp -d) timeout 240 $K tune --algo scrypt-kdf --device cuda:0 >"$OUT/kdf-tune.log" 2>&1
    tail -15 "$OUT/kdf-tune.log" | tee -a "$OUT/summary.txt"
    HC_MODES=8900 HC_VARIANTS=default HC_BUDGET_S=150 bash anchors/run_hashcat.sh "$OUT/hashcat" >"$OUT/hashcat.log" 2>&1
    grep -E "HC_RESULT" "$OUT/hashcat.log" | tee -a "$OUT/summary.txt"
fi

if has compare; then
    say "every bench, base against this build ($ROUNDS rounds)"
    OUT=$OUT bash scripts/bench-compare.sh build-base/kiln $K cuda:0 "$ROUNDS" | tee -a "$OUT/summary.txt"
fi
say done
