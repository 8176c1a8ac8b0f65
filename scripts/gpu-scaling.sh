#!/usr/bin/env bash
# Scaling over the GPUs of one host (issue 17), on a device machine with several GPUs: mining
# (bench sha256d and scrypt), Merkle trees (the whole several-device build), pool mining on all
# GPUs against the test pool, PageRank (RMAT, in one process over a device set and through mpirun
# with one process per GPU) on 1 GPU and on all of them, each figure against one GPU's in the same
# run. Builds only the library and the CLI, for Hopper alone, to save device time; every figure is
# appended to $OUT/scaling.txt as it comes, so a run cut short keeps what it measured.
# Environment:
#   STEPS          what to measure (default "mining merkle pool pagerank mpi"): a device call has
#                  10 minutes, so a long run is split over calls, e.g. STEPS="mining merkle pool"
#                  then STEPS="pagerank mpi" (the build in build-scale is kept between them)
#   SECONDS_BENCH  mining bench time (default 3)
#   MERKLE         "algo:leaves ..." (default "sha256d:2^26 rp64:2^24"); MERKLE_REPS (default 5);
#   MERKLE_CPU     algorithms whose root the CPU also computes (default "sha256d"; rp64_256 at
#                  2^24 leaves takes 32 cores about a minute)
#   POOL_SECONDS   pool mining time (default 60); POOL_DIFFICULTY (default NGPU / 2: about 4
#                  shares a second at 8.7 GH/s a GPU, under kiln's bound of 20)
#   SCALES         PageRank RMAT scales (default "26")
#   MPI_THREADS    CPU threads per mpirun process (default cores / processes); MPI_TIMEOUT (default
#                  300 s) bounds each mpirun row
# The pool row needs kiln built with libjansson: carry .debs/ (scripts/jansson-from-debs.sh).
# A dry run without GPUs: KILN_BUILD=build-cpu DEVICE1=cpu DEVICES=cpu MPI_DEVICE=cpu (the CPU
# for every device, the one-GPU kernel rows fail; it checks the script, measures nothing).
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
R=$OUT/scaling.txt
: >"$R"
JOBS=$(nproc)
T0=$(date +%s)
STEPS=" ${STEPS:-mining merkle pool pagerank mpi} "
want() { case "$STEPS" in *" $1 "*) return 0 ;; esac; return 1; }
say() { printf '%s\n' "$*" | tee -a "$R"; }
NGPU=$(nvidia-smi -L 2>/dev/null | wc -l)
[ "$NGPU" -gt 0 ] || NGPU=1
say "machine: $NGPU x $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1), $JOBS cores; $(nvidia-smi topo -m 2>/dev/null | sed -n 2p | tr -s ' ' | cut -c1-60)"
# libjansson for pool mining, from the carried .debs when the machine lacks it
. scripts/jansson-from-debs.sh /tmp/kiln-jansson >/dev/null 2>&1 || say "no libjansson and no .debs/: no pool mining in this build"
B=${KILN_BUILD:-build-scale}
K=$B/kiln
if [ ! -x "$K" ]; then
    cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
        >"$OUT/build.log" 2>&1 && cmake --build "$B" -j "$JOBS" --target kiln_cli >>"$OUT/build.log" 2>&1 ||
        { tail -20 "$OUT/build.log"; exit 1; }
fi
say "build: $(($(date +%s) - T0)) s; $("$K" version | grep -E '^(mpi|pool)' | tr '\n' ' ')"
ONE=${DEVICE1:-cuda:0}
ALL=${DEVICES:-cuda:all}
# member $1 of a bench's JSON document (the first row of several)
field() { python3 -c 'import json,sys
d=json.load(sys.stdin); d=d["results"][0] if "results" in d and "algo" not in d else d
print(d[sys.argv[1]])' "$1"; }
ratio() { python3 -c 'import sys; a,b=float(sys.argv[1]),float(sys.argv[2]); print("%.3f" % (a/b) if b > 0 else "-")' "$1" "$2"; }
rate() { python3 -c 'import sys; r=float(sys.argv[1]); print("%.4g %s" % next((r/f,u) for f,u in ((1e9,"GH/s"),(1e6,"MH/s"),(1e3,"kH/s"),(1,"H/s")) if r >= f or f == 1))' "$1"; }

BENCH_ALL_SHA256D=
if want mining; then
    for algo in sha256d scrypt; do
        one=$("$K" bench --algo $algo --device $ONE --seconds "${SECONDS_BENCH:-3}" --json 2>/dev/null | field rate)
        all=$("$K" bench --algo $algo --device $ALL --seconds "${SECONDS_BENCH:-3}" --json 2>/dev/null | field rate)
        [ $algo = sha256d ] && BENCH_ALL_SHA256D=$all
        say "mining $(printf '%-8s' $algo) 1 GPU $(rate "$one"), $NGPU GPUs $(rate "$all"): $(ratio "$all" "$one")x"
    done
fi

# Merkle: the whole kiln_merkle_build (leaves copied from host memory, a subtree per GPU, the top
# merged on the CPU) on 1 GPU and on all, the same leaves, so the roots must be equal; the one-GPU
# kernel bench (leaves already on the GPU, no copy) is printed beside it
if want merkle; then
    for spec in ${MERKLE:-sha256d:2^26 rp64:2^24}; do
        a=${spec%%:*} n=${spec#*:} reps=${MERKLE_REPS:-5}
        mb() { "$K" bench --algo "merkle-$a" --leaves "$n" --reps "$reps" --json "$@" 2>>"$OUT/merkle.err"; }
        kernel=$(mb --device "$ONE" --method subtrees | field rate 2>>"$OUT/merkle.err")
        mb --device "$ONE" --whole-build >"$OUT/merkle-$a-1.json"
        mb --device $ALL --whole-build >"$OUT/merkle-$a-all.json"
        # rate, milliseconds a tree and root of a whole-build row
        row() { python3 -c 'import json,sys
try: d=json.load(open(sys.argv[1])); print(d["rate"], "%.1f" % (d["results"][0]["seconds"]*1e3), d["root"])
except Exception: print("0 - -")' "$1"; }
        read -r one t1 r1 < <(row "$OUT/merkle-$a-1.json")
        read -r all ta ra < <(row "$OUT/merkle-$a-all.json")
        roots="roots $([ "$r1" != - ] && [ "$r1" = "$ra" ] && echo equal || echo DIFFER: "$r1" "$ra")"
        case " ${MERKLE_CPU:-sha256d} " in *" $a "*)
            rc=$("$K" bench --algo "merkle-$a" --leaves "$n" --reps 1 --json --device cpu --whole-build 2>>"$OUT/merkle.err" | field root)
            roots="$roots, $([ "$rc" = "$r1" ] && echo "the CPU's too" || echo "the CPU's DIFFERS: $rc")" ;;
        esac
        say "merkle $(printf '%-8s' $a) $n leaves, whole build: 1 GPU $t1 ms ($(rate "$one")), $NGPU GPUs $ta ms ($(rate "$all")): $(ratio "$all" "$one")x; $roots; root $r1 (1 GPU's kernels alone, leaves resident: $(rate "${kernel:-0}"))"
    done
fi

# Pool mining on all GPUs for POOL_SECONDS against the test pool (tests/pool/pool_server.py,
# scenario gpu, on the loopback), which checks every share itself with hashlib
if want pool; then
    if "$K" mine --pool none --user x 2>&1 | grep -q "without pool support"; then
        say "pool: skipped, kiln built without pool support (carry .debs/ with libjansson4 and libjansson-dev)"
    else
        d=$OUT/pool secs=${POOL_SECONDS:-60}
        rm -rf "$d" && mkdir -p "$d" # the server's files of an earlier run would be read as this one's
        python3 tests/pool/pool_server.py --scenario gpu --dir "$d" --time-limit $((secs + 120)) --duration "$secs" \
            --device $ALL --difficulty "${POOL_DIFFICULTY:-$(python3 -c "print($NGPU / 2)")}" --report "$d/report.json" \
            >"$d/server.out" 2>&1 &
        spid=$!
        for _ in $(seq 600); do [ -s "$d/args" ] && break; kill -0 $spid 2>/dev/null || break; sleep 0.05; done
        if [ ! -s "$d/args" ]; then
            say "pool: the test pool did not start: $(tail -2 "$d/server.out" | tr '\n' ' ')"
            kill $spid 2>/dev/null
        else
            mapfile -t args <"$d/args"
            python3 tests/pool/run_measured.py "$d" $((secs + 60)) 0 "$d/kiln.json" "$d/kiln.log" -- "$K" mine "${args[@]}"
            kill -TERM $spid
            wait $spid
            prc=$?
            say "$(python3 - "$d" "$prc" "$NGPU" "$secs" "$BENCH_ALL_SHA256D" <<'PY'
import json, os, sys
d, prc, ngpu, secs, bench = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
g = lambda r: "%.4g GH/s" % (float(r) / 1e9)
try:
    counts = json.load(open(os.path.join(d, "report.json")))["counts"]
except (OSError, ValueError, KeyError):
    counts = {}
try:
    k = json.load(open(os.path.join(d, "kiln.json")))
except (OSError, ValueError):
    k = {}
rc = open(os.path.join(d, "rc")).read().strip() if os.path.exists(os.path.join(d, "rc")) else "?"
checks = [l.strip() for l in open(os.path.join(d, "server.out"), errors="replace") if l.startswith("FAIL")]
line = ("pool %s s on %s GPUs: %s (kiln's rate; inside kiln_scan %s; work proven by accepted shares %s)%s; "
        "pool counted accepted %d, invalid %d, stale %d, duplicate %d; kiln exit %s, pool checks %s" %
        (secs, ngpu, g(k.get("rate", 0)), g(k.get("device_rate", 0)), g(k.get("share_rate", 0)),
         "; %.3f x the bench on all GPUs" % (float(k.get("rate", 0)) / float(bench)) if bench else "",
         counts.get("accepted", 0), counts.get("invalid", 0), counts.get("stale", 0), counts.get("duplicate", 0),
         rc, "PASS" if prc == 0 else "FAILED (%s)" % "; ".join(checks[:3])))
devs = k.get("devices")
if isinstance(devs, list) and devs:  # per device, when kiln mine --json has them (docs/JSON.md "mine")
    parts, total = [], float(k.get("hashes") or 0)
    for i, e in enumerate(devs):
        if not isinstance(e, dict):
            parts.append(str(e))
            continue
        part = "%s: %s" % (e.get("id", i), g(e.get("rate", 0)))
        if "seconds" in e:
            part += " over %.1f s busy" % float(e["seconds"])
        if total and "hashes" in e:
            part += ", %.1f%% of the hashes" % (100 * float(e["hashes"]) / total)
        parts.append(part)
    line += "\n  per device: " + " | ".join(parts)
print(line)
PY
)"
        fi
    fi
fi

# PageRank: per-iteration time, median of 3, the graph's build time, the exchange's share and
# kind, and the largest part's GPU memory peak; under mpirun each process gets cores / processes
# threads and no binding (Open MPI binds 2 processes to a core each by default), bounded by
# MPI_TIMEOUT. ONE_MAX_SCALE (default 27): the largest scale tried on one GPU. Rows:
#   1 GPU; all GPUs in one process (NCCL where kiln has it), and with KILN_NCCL=0 (peer copies) at
#   the first scale; mpirun -np NGPU (NCCL, or host-staged MPI without it); mpirun with NCCL's
#   peer-to-peer and shared-memory paths off (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1: the socket
#   transport hosts apart would use) at the first scale
pr() {
    local rc
    "$@" --rmat "$s" --tol 0 --max-iter "${PR_ITERS:-20}" --repeat 3 --json >"$OUT/pr.json" 2>"$OUT/pr.err"
    rc=$?
    if [ $rc = 124 ] || [ $rc = 137 ]; then echo "- timed out after ${MPI_TIMEOUT:-300} s"; return; fi
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); x=d.get("exchange_seconds",0)/d["seconds"] if d["seconds"] else 0
p=d.get("parts") or []
peak=max((q["peak_memory_bytes"] for q in p), default=0)/2**30
print("%.3f %s, %.0f%% of the loop exchanging (%s), graph built in %.1f s%s" % (d["seconds_per_iteration"]*1e3, d["kernel"], 100*x,
      d.get("exchange","-"), d["build_seconds"], ", largest part GPU peak %.1f GiB" % peak if p else ""))' "$OUT/pr.json" 2>/dev/null ||
        echo "- failed (exit $rc): $(tail -2 "$OUT/pr.err" | tr '\n' ' ')"
}
first=1
for s in ${SCALES:-26}; do
    one=-
    if want pagerank; then
        if [ "$s" -le "${ONE_MAX_SCALE:-27}" ]; then
            one=$(pr "$K" pagerank --device "$ONE")
            say "pagerank RMAT $s, 1 GPU (grid kernel): ${one%% *} ms/iteration (${one#* })"
        fi
        all=$(pr "$K" pagerank --device $ALL)
        say "pagerank RMAT $s, $NGPU GPUs in one process: ${all%% *} ms/iteration (${all#* }); $(ratio "${one%% *}" "${all%% *}" 2>/dev/null)x one GPU"
        if [ $first = 1 ]; then
            peer=$(KILN_NCCL=0 pr "$K" pagerank --device $ALL)
            say "pagerank RMAT $s, $NGPU GPUs in one process, KILN_NCCL=0: ${peer%% *} ms/iteration (${peer#* })"
        fi
    fi
    if want mpi; then
        th=${MPI_THREADS:-$((JOBS / NGPU > 0 ? JOBS / NGPU : 1))}
        MPI=(timeout -k 10 "${MPI_TIMEOUT:-300}" mpirun --allow-run-as-root --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
        mpi=$(pr "${MPI[@]}" -np "$NGPU" "$K" pagerank --device "${MPI_DEVICE:-cuda}" --threads "$th")
        say "pagerank RMAT $s, mpirun -np $NGPU, a GPU and $th threads each: ${mpi%% *} ms/iteration (${mpi#* }); $(ratio "${one%% *}" "${mpi%% *}" 2>/dev/null)x one GPU"
        if [ $first = 1 ]; then
            sock=$(NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 pr "${MPI[@]}" -x NCCL_P2P_DISABLE -x NCCL_SHM_DISABLE -np "$NGPU" \
                "$K" pagerank --device "${MPI_DEVICE:-cuda}" --threads "$th")
            say "pagerank RMAT $s, mpirun -np $NGPU, NCCL over sockets (NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1): ${sock%% *} ms/iteration (${sock#* })"
        fi
    fi
    first=0
done
say "total: $(($(date +%s) - T0)) s"
