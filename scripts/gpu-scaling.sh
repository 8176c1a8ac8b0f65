#!/usr/bin/env bash
# Scaling over the GPUs of one host (issue 17), on a device machine with several GPUs: mining
# (bench sha256d and scrypt), PageRank (RMAT, in one process over a device set and through
# mpirun with one process per GPU) on 1 GPU and on all of them, each figure against one GPU's in
# the same run. Builds only the library and the CLI, for Hopper alone, to save device time; every
# figure is appended to $OUT/scaling.txt as it comes, so a run cut short keeps what it measured.
# Environment: SCALES (PageRank, default "26"), SECONDS_BENCH (default 3).
set -u
export LC_ALL=C NCCL_NVLS_ENABLE=0
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
R=$OUT/scaling.txt
: >"$R"
JOBS=$(nproc)
T0=$(date +%s)
say() { printf '%s\n' "$*" | tee -a "$R"; }
NGPU=$(nvidia-smi -L | wc -l)
say "machine: $NGPU x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(nvidia-smi topo -m 2>/dev/null | sed -n 2p | tr -s ' ' | cut -c1-60)"
if [ ! -x build-scale/kiln ]; then
    cmake -S . -B build-scale -DCMAKE_BUILD_TYPE=Release -DKILN_CUDA=ON -DKILN_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90-real \
        >"$OUT/build.log" 2>&1 && cmake --build build-scale -j "$JOBS" --target kiln_cli >>"$OUT/build.log" 2>&1 ||
        { tail -20 "$OUT/build.log"; exit 1; }
fi
say "build: $(($(date +%s) - T0)) s"
K=build-scale/kiln
ALL=cuda:all
field() { python3 -c 'import json,sys
d=json.load(sys.stdin); r=d.get("results",[d]) if isinstance(d,dict) else d
print(r[0][sys.argv[1]] if "results" in d else d[sys.argv[1]])' "$1"; }

for algo in sha256d scrypt; do
    one=$("$K" bench --algo $algo --device cuda:0 --seconds "${SECONDS_BENCH:-3}" --json 2>/dev/null | field rate)
    all=$("$K" bench --algo $algo --device $ALL --seconds "${SECONDS_BENCH:-3}" --json 2>/dev/null | field rate)
    say "$(python3 -c "import sys; o,a=float(sys.argv[1]),float(sys.argv[2]); print('mining %-8s 1 GPU %.4g H/s, %d GPUs %.4g H/s: %.3fx' % (sys.argv[3], o, $NGPU, a, a/o))" "$one" "$all" $algo)"
done

for s in ${SCALES:-26}; do
    pr() { "$@" --rmat "$s" --tol 0 --max-iter 20 --repeat 3 --json 2>"$OUT/pr.err" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); print("%.3f %s" % (d["seconds_per_iteration"]*1e3, d["kernel"]))' ||
        tail -2 "$OUT/pr.err"; }
    one=$(pr "$K" pagerank --device cuda:0)
    say "pagerank RMAT $s, 1 GPU (grid kernel): ${one% *} ms/iteration"
    one_parts=$(pr "$K" pagerank --device cuda:0,0)
    say "pagerank RMAT $s, 1 GPU as 2 logical devices (parts kernel, its own exchange): ${one_parts% *} ms/iteration"
    all=$(pr "$K" pagerank --device $ALL)
    say "pagerank RMAT $s, $NGPU GPUs in one process (parts kernel, peer copies): ${all% *} ms/iteration"
    mpi=$(pr mpirun --allow-run-as-root --oversubscribe -np "$NGPU" "$K" pagerank --device cuda)
    say "pagerank RMAT $s, mpirun -np $NGPU, a GPU each (host-staged MPI_Allgatherv): ${mpi% *} ms/iteration"
done
say "total: $(($(date +%s) - T0)) s"
