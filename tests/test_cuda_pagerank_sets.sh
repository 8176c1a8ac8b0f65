#!/usr/bin/env bash
# PageRank over GPU parts, as a user runs it. On any GPU: RMAT built in parts (two logical devices
# of GPU 0, each building its rows from every edge it draws) saves the same CSR cache, byte for
# byte, as the CPU's build, directed and undirected; a graph no device can build is refused before
# anything is allocated, in one line naming the memory it needs and the memory free (exit 2). On 2
# or more GPUs: cuda:all exchanges through NCCL (when kiln has it) and its ranks equal the CPU's
# (float32 within 1e-4 L1, float64 within 1e-9), peer copies (KILN_NCCL=0) too; under mpirun, one
# GPU a process, the ranks and the counts equal one process's, the slices through NCCL; SIGINT
# ends cuda:all within a second, and mpirun (or a process killed) within mpirun's own delay and
# 0.6 s. Skipped (77) without a GPU. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
# usage: test_cuda_pagerank_sets.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
export NCCL_NVLS_ENABLE=0
"$KILN" devices 2>/dev/null | grep -q '^cuda:0' || { echo "no CUDA GPU: skipped"; exit 77; }
NGPU=$("$KILN" devices 2>/dev/null | grep -c '^cuda:')
NCCL=$("$KILN" version | grep -q '^nccl: on' && echo 1 || echo 0)
l1() { paste "$1" "$2" | awk -F'\t' '$1 != $3 { print "ids"; exit } { d = $2 - $4; s += d < 0 ? -d : d } END { if (NR) printf "%.3g\n", s }'; }
field() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d.get(sys.argv[2]))' "$@"; }
within() { [ -n "$1" ] && [ "$1" != ids ] && awk -v d="$1" -v t="$2" 'BEGIN { exit !(d + 0 <= t) }'; }

# the partitioned build against the CPU's: the whole CSR cache, byte for byte
for u in "" --undirected; do
    expect_rc 0 "rmat 15 $u on the CPU" "$KILN" pagerank --rmat 15 $u --device cpu --tol 0 --max-iter 1 --save-csr "$TMP/cpu.csr"
    expect_rc 0 "rmat 15 $u on cuda:0,0" "$KILN" pagerank --rmat 15 $u --device cuda:0,0 --tol 0 --max-iter 1 --save-csr "$TMP/parts.csr" --json
    [ "$(field "$TMP/out" built_on_gpu)" = True ] && ok || bad "rmat 15 $u on cuda:0,0: not built on the GPU"
    cmp -s "$TMP/cpu.csr" "$TMP/parts.csr" && ok || bad "rmat 15 $u: the parts' CSR differs from the CPU's"
done

# too large for the devices: one line naming what it needs and what is free, before any allocation
expect_rc 2 "rmat 30 on cuda:0,0" "$KILN" pagerank --rmat 30 --edge-factor 64 --device cuda:0,0
grep -q 'GiB to build on this GPU, which has .* GiB free' "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq 1 ] && ok ||
    bad "rmat 30 refusal: $(cat "$TMP/err")"

if [ "$NGPU" -ge 2 ]; then
    FB=$DATA/facebook_combined.txt
    expect_rc 0 "facebook on the CPU" "$KILN" pagerank "$FB" --undirected --device cpu --precision float64 --tol 0 \
        --max-iter 300 --output "$TMP/cpu.tsv"
    expect_rc 0 "rmat 18 on the CPU" "$KILN" pagerank --rmat 18 --device cpu --precision float64 --tol 0 --max-iter 30 \
        --output "$TMP/rcpu.tsv"
    for mode in nccl peer; do
        env=()
        [ $mode = peer ] && env=(KILN_NCCL=0)
        want=$([ $mode = nccl ] && [ "$NCCL" = 1 ] && echo nccl || echo "peer copies")
        for prec in float32:1e-4 float64:1e-9; do
            expect_rc 0 "facebook on cuda:all ($mode, ${prec%%:*})" env "${env[@]}" "$KILN" pagerank "$FB" --undirected \
                --device cuda:all --precision "${prec%%:*}" --tol 0 --max-iter 300 --output "$TMP/set.tsv" --json
            [ "$(field "$TMP/out" exchange)" = "$want" ] && ok || bad "facebook ($mode): exchange $(field "$TMP/out" exchange), not $want"
            d=$(l1 "$TMP/cpu.tsv" "$TMP/set.tsv")
            within "$d" "${prec#*:}" && ok || bad "facebook on cuda:all ($mode, $prec): L1 to the CPU $d"
        done
        expect_rc 0 "rmat 18 on cuda:all ($mode)" env "${env[@]}" "$KILN" pagerank --rmat 18 --device cuda:all \
            --precision float64 --tol 0 --max-iter 30 --output "$TMP/rset.tsv" --json
        d=$(l1 "$TMP/rcpu.tsv" "$TMP/rset.tsv")
        within "$d" 1e-9 && ok || bad "rmat 18 on cuda:all ($mode): L1 to the CPU $d"
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d["parts"]
assert len(p) == d["devices"] and sum(x["edges"] for x in p) == d["edges"] and all(x["peak_memory_bytes"] > 0 for x in p), p' \
            "$TMP/out" && ok || bad "rmat 18 ($mode): parts $(field "$TMP/out" parts)"
    done
    if "$KILN" version | grep -q '^mpi: on' && command -v mpirun >/dev/null; then
        MPIRUN=(timeout 300 mpirun --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
        [ "$(id -u)" -eq 0 ] && MPIRUN+=(--allow-run-as-root)
        expect_rc 0 "rmat 18 under mpirun -np $NGPU" "${MPIRUN[@]}" -np "$NGPU" "$KILN" pagerank --rmat 18 --device cuda \
            --precision float64 --tol 0 --max-iter 30 --output "$TMP/rmpi.tsv" --json
        d=$(l1 "$TMP/rcpu.tsv" "$TMP/rmpi.tsv")
        within "$d" 1e-9 && ok || bad "rmat 18 under mpirun: L1 to the CPU $d"
        [ "$NCCL" = 0 ] || [ "$(field "$TMP/out" exchange)" = nccl ] && ok || bad "mpirun: exchange $(field "$TMP/out" exchange)"
        [ "$(field "$TMP/out" edges)" = "$(python3 -c 'import json,sys; print(sum(p["edges"] for p in json.load(open(sys.argv[1]))["parts"]))' "$TMP/out")" ] &&
            ok || bad "mpirun: the parts' edges do not add up to the graph's"
    fi

    # ---- signals (issue 36.8): SIGINT to cuda:all ends it within a second (1.5 s on 4 H200s: the
    # communicators were aborted one after the other); under mpirun, SIGINT to mpirun, or a process
    # killed, within mpirun's own delay (Open MPI: SIGCONT, then SIGTERM odls_base_sigkill_timeout
    # later) and 0.9 s (2.1 s: the processes waited in MPI_Finalize, or blocked in an exchange with
    # the killed one, for mpirun's SIGKILL)
    . "$(dirname "$0")/signal_util.sh"
    for mode in nccl peer; do
        env=()
        [ $mode = peer ] && env=(KILN_NCCL=0)
        signal_at_line INT "pagerank: iteration [1-9]" "$TMP/out" "$TMP/err" env "${env[@]}" "$KILN" pagerank --rmat 22 \
            --device cuda:all --tol 0 --max-iter 1000000 --progress
        [ "$code" = 130 ] && grep -q "interrupted by SIGINT" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
            bad "SIGINT to cuda:all ($mode): exit $code, $(tail -c 300 "$TMP/err")"
        within 1.0 && ok || bad "SIGINT to cuda:all ($mode): it ended after $took s"
    done
    if "$KILN" version | grep -q '^mpi: on' && command -v mpirun >/dev/null; then
        grace=$(ompi_info --param odls base --level 9 2>/dev/null |
            sed -n 's/.*odls_base_sigkill_timeout" (current value: "\([0-9]*\)".*/\1/p')
        # mpirun SIGKILLs at twice its delay; a process ends on the SIGTERM in 0.1-0.2 s, and the
        # GPU's teardown as it exits takes 0.2-0.5 s more (4 H200s: 1.31-1.66 s in all)
        limit=$(awk -v g="${grace:-1}" 'BEGIN { print g + 0.9 }')
        MPISIG=(mpirun --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE)
        [ "$(id -u)" -eq 0 ] && MPISIG+=(--allow-run-as-root)
        signal_at_line INT "pagerank: iteration [1-9]" "$TMP/out" "$TMP/err" "${MPISIG[@]}" -np "$NGPU" "$KILN" pagerank \
            --rmat 22 --device cuda --tol 0 --max-iter 1000000 --progress
        [ "$code" != 0 ] && grep -q "interrupted by SIG" "$TMP/err" && ok ||
            bad "SIGINT to mpirun -np $NGPU: exit $code, $(tail -c 300 "$TMP/err")"
        within "$limit" && ok || bad "SIGINT to mpirun -np $NGPU: it ended after $took s (mpirun's delay ${grace:-1} s)"
        kill_one_rank "$TMP/out" "$TMP/err" 60 "${MPISIG[@]}" -np "$NGPU" "$KILN" pagerank --rmat 22 --device cuda \
            --tol 0 --max-iter 1000000 --progress
        [ -n "$victim" ] && [ "$code" != 0 ] && within "$limit" && ok ||
            bad "a process of mpirun -np $NGPU SIGKILLed: the run ended after $took s, exit $code"
    fi
fi
echo "test_cuda_pagerank_sets: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
