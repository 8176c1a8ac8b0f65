#!/usr/bin/env bash
# kiln pagerank across processes (mpirun -np 1..4, the CPU backend) against the same run in one
# process: the ranks within 1e-12 L1 in float64 on ego-Facebook and on RMAT graphs, weighted and
# personalized; the distributed RMAT graph's counts equal to the single-process graph's and to the
# reference generator's (tests/data/rmat_digests.txt); a process that fails makes every process
# exit non-zero with one message, within a timeout; SIGINT to mpirun, or a process killed, ends
# the run before mpirun's SIGKILL (twice its delay). Skipped (77) when kiln has no MPI or mpirun is
# missing. The long label (KILN_TEST_LONG=1) runs each comparison at every process count.
# usage: test_mpi_pagerank.sh KILN DATA_DIR
set -u
KILN=$1
DATA=$2
. "$(dirname "$0")/pagerank_cli_util.sh"
. "$(dirname "$0")/mpi_test_util.sh"
FB=$DATA/facebook_combined.txt
CPU="--device cpu --threads 1"

# the graph's counts from --json, one line
counts() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(*(d[k] for k in ("nodes","edges","edges_read","self_loops_removed","duplicates_removed","self_loops","dangling_nodes")))' "$1"; }

# exchange_share JSON NP: exchange_seconds is 0 without mpirun (NP 0), in (0, seconds] under it
exchange_share() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); x,s=d["exchange_seconds"],d["seconds"]
ok = x == 0 if sys.argv[2] == "0" else 0 < x <= s
if len(sys.argv) > 3: print(x, "of", s)
sys.exit(0 if ok else 1)' "$@"; }

exchange_kind() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("exchange"))' "$1"; }

# compare NAME NPS ARGS...: the single-process run against mpirun -np each of NPS
compare() {
    local name=$1 nps=$2
    shift 2
    expect_rc 0 "$name: one process" "$KILN" pagerank "$@" $CPU --output "$TMP/one.tsv" --json
    cp "$TMP/out" "$TMP/one.json"
    exchange_share "$TMP/one.json" 0 && ok || bad "$name: exchange_seconds of one process $(exchange_share "$TMP/one.json" 0 -v)"
    [ "$(exchange_kind "$TMP/one.json")" = none ] && ok || bad "$name: exchange of one process $(exchange_kind "$TMP/one.json")"
    for np in $nps; do
        expect_rc 0 "$name: -np $np" "${MPIRUN[@]}" -np "$np" "$KILN" pagerank "$@" $CPU --output "$TMP/np.tsv" --json
        local d
        d=$(l1 "$TMP/one.tsv" "$TMP/np.tsv")
        [ -n "$d" ] && awk -v d="$d" 'BEGIN { exit !(d + 0 <= 1e-12 && d != "ids") }' && ok ||
            bad "$name -np $np: L1 to one process '$d'"
        [ "$(wc -l <"$TMP/np.tsv")" -eq "$(wc -l <"$TMP/one.tsv")" ] && ok || bad "$name -np $np: output lines"
        # process 0 alone prints: one JSON document, its counts those of the whole graph
        [ "$(counts "$TMP/out" 2>&1)" = "$(counts "$TMP/one.json")" ] && ok ||
            bad "$name -np $np: counts $(counts "$TMP/out" 2>&1) vs $(counts "$TMP/one.json")"
        # the exchange is timed inside the loop: none alone, a part of the loop with others
        exchange_share "$TMP/out" "$np" && ok || bad "$name -np $np: exchange_seconds $(exchange_share "$TMP/out" "$np" -v 2>&1)"
        # and its kind: through host memory and MPI on the CPU
        [ "$(exchange_kind "$TMP/out")" = host ] && ok || bad "$name -np $np: exchange $(exchange_kind "$TMP/out")"
    done
}

# nps ALL DEFAULT: the process counts a comparison runs, ALL in the long label (KILN_TEST_LONG=1,
# test_mpi_pagerank_long), else DEFAULT: each mpirun start is seconds on a busy machine, and the
# defaults still run every count, split and input
nps() { if [ "${KILN_TEST_LONG:-}" = 1 ]; then echo "$1"; else echo "$2"; fi; }

# ego-Facebook read by process 0 and split; tol 1e-12 runs ~100 iterations of exchange
compare "facebook" "$(nps "1 2 3 4" "1 3")" "$FB" --undirected --tol 1e-12 --max-iter 300
# RMAT generated in shares and shuffled; directed with dangling nodes, then undirected weighted
compare "rmat 13" "$(nps "1 2 3 4" "2 4")" --rmat 13 --tol 1e-12 --max-iter 300
compare "rmat 12 undirected weighted" "$(nps "2 3" 3)" --rmat 12 --undirected --weighted --tol 1e-12 --max-iter 300
# personalized and weighted, on both inputs (every process reads the vector files)
printf '1\t2\n7\t0.5\n100\t1\n4000\t3\n' >"$TMP/p.tsv"
printf '0\t1\n5\t1\n' >"$TMP/q.tsv"
compare "rmat 12 weighted personalized" "$(nps "2 4" 2)" --rmat 12 --weighted --personalization "$TMP/p.tsv" \
    --dangling "$TMP/q.tsv" --tol 1e-12 --max-iter 300
printf '0\t1\n107\t2\n3437\t1\n' >"$TMP/fp.tsv"
compare "facebook personalized nstart" "3" "$FB" --undirected --personalization "$TMP/fp.tsv" --nstart "$TMP/q.tsv" \
    --tol 1e-12 --max-iter 300

# SNAP files are read by every process at once (a byte range each): sparse 64-bit ids (the id
# table), weights, and a malformed line named by its line number in the file; gzip input and
# Matrix Market files are read by process 0 and sent out
awk '!/^#/ { printf "%.0f %.0f\n", $1 * 1000003 + 99999999999, $2 * 1000003 + 99999999999 }' "$FB" >"$TMP/sparse.txt"
compare "sparse ids" "$(nps "2 3" 3)" "$TMP/sparse.txt" --undirected --tol 1e-12 --max-iter 300
compare "weighted snap" "$(nps "2 3" 2)" "$DATA/weights_small.txt" --weighted --tol 1e-12 --max-iter 300
compare "weighted mtx" "2" "$DATA/weights_general.mtx" --weighted --tol 1e-12 --max-iter 300
gzip -c "$FB" >"$TMP/fb.txt.gz"
compare "gzip" "3" "$TMP/fb.txt.gz" --undirected --tol 1e-12 --max-iter 300
{ head -n 70000 "$FB"; echo "12 x"; tail -n +70001 "$FB"; } >"$TMP/broken.txt"
expect_rc 2 "broken one" "$KILN" pagerank "$TMP/broken.txt" $CPU
where=$(grep -o 'broken.txt:[0-9]*:' "$TMP/err")
[ "$where" = "broken.txt:70001:" ] && ok || bad "broken line one process: '$where'"
expect_rc 2 "broken -np 4" "${MPIRUN[@]}" -np 4 "$KILN" pagerank "$TMP/broken.txt" $CPU
[ "$(grep -c "^kiln pagerank: .*$where" "$TMP/err")" -eq 1 ] && ok || bad "broken -np 4: $(head -c 300 "$TMP/err")"

# the distributed RMAT graph is the reference generator's (scale 12, seed 1: counts of the
# NumPy build in tests/data/rmat_digests.txt)
read -r _ gen loops dups nnz _ < <(grep '^12 ' "$DATA/rmat_digests.txt")
expect_rc 0 "rmat 12 -np 3 json" "${MPIRUN[@]}" -np 3 "$KILN" pagerank --rmat 12 $CPU --json
[ "$(counts "$TMP/out" | cut -d' ' -f2-5)" = "$nnz $gen $loops $dups" ] && ok ||
    bad "rmat 12 -np 3 counts $(counts "$TMP/out") vs reference $nnz $gen $loops $dups"

# float32 storage: the same iterations in every process
expect_rc 0 "float32 one" "$KILN" pagerank --rmat 12 $CPU --precision float32 --output "$TMP/one.tsv"
expect_rc 0 "float32 -np 2" "${MPIRUN[@]}" -np 2 "$KILN" pagerank --rmat 12 $CPU --precision float32 --output "$TMP/np.tsv"
d=$(l1 "$TMP/one.tsv" "$TMP/np.tsv")
awk -v d="$d" 'BEGIN { exit !(d != "ids" && d + 0 <= 1e-6) }' && ok || bad "float32 -np 2: L1 '$d'"

# --top on stdout comes once, from process 0
expect_rc 0 "top -np 3" "${MPIRUN[@]}" -np 3 "$KILN" pagerank "$FB" --undirected $CPU --top 4
[ "$(cut -f1,2 "$TMP/out" | tr '\t\n' ':,')" = "1:3437,2:107,3:1684,4:0," ] && ok || bad "top -np 3: $(cat "$TMP/out")"
[ "$(grep -c 'kiln pagerank: 4039 nodes' "$TMP/err")" -eq 1 ] && ok || bad "top -np 3 summary lines: $(cat "$TMP/err")"

# failures: every process exits non-zero, one message names the cause, nothing hangs
# (timeout's 124 would show as a wrong exit code below)
fails() { # NAME PATTERN COMMAND...
    local name=$1 pat=$2
    shift 2
    "$@" >"$TMP/out" 2>"$TMP/err"
    local rc=$?
    [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && ok || bad "$name: exit $rc"
    [ "$(grep -c "^kiln pagerank: .*$pat" "$TMP/err")" -eq 1 ] && ok || bad "$name: message: $(head -c 600 "$TMP/err")"
}
fails "missing graph" "$TMP/nope.txt" "${MPIRUN[@]}" -np 3 "$KILN" pagerank "$TMP/nope.txt" $CPU
printf '1\t-2\n' >"$TMP/neg.tsv"
fails "bad personalization" "negative value" "${MPIRUN[@]}" -np 2 "$KILN" pagerank --rmat 10 $CPU --personalization "$TMP/neg.tsv"
# one process alone fails (its own arguments, mpirun's MPMD form): process 0 names it
fails "one process fails" "process 1: .*$TMP/absent.tsv" "${MPIRUN[@]}" -np 1 "$KILN" pagerank --rmat 10 $CPU : \
    -np 1 "$KILN" pagerank --rmat 10 $CPU --personalization "$TMP/absent.tsv"
fails "save-csr refused" "save-csr" "${MPIRUN[@]}" -np 2 "$KILN" pagerank --rmat 10 $CPU --save-csr "$TMP/g.csr"

# With a GPU: processes on GPUs (each the GPU of its local rank modulo the host's, so here all on
# GPU 0), their slices staged through the host, against one process on the CPU in float64 (1e-9)
# and float32 (1e-5), plain, weighted and personalized; a device set under mpirun is refused.
if "$KILN" devices 2>/dev/null | grep -q '^cuda:0'; then
    gpu_compare() { # NAME TOL NP ARGS...
        local name=$1 tol=$2 np=$3
        shift 3
        expect_rc 0 "$name: one CPU process" "$KILN" pagerank "$@" $CPU --output "$TMP/one.tsv"
        expect_rc 0 "$name: -np $np on the GPU" "${MPIRUN[@]}" -np "$np" "$KILN" pagerank "$@" --device cuda \
            --output "$TMP/np.tsv" --json
        grep -q '"kernel": *"parts"' "$TMP/out" && ok || bad "$name: not the parts kernel: $(head -c 300 "$TMP/out")"
        local d
        d=$(l1 "$TMP/one.tsv" "$TMP/np.tsv")
        [ -n "$d" ] && awk -v d="$d" -v t="$tol" 'BEGIN { exit !(d + 0 <= t && d != "ids") }' && ok ||
            bad "$name -np $np GPU: L1 to one CPU process '$d' (tolerance $tol)"
    }
    gpu_compare "facebook float64" 1e-9 2 "$FB" --undirected --tol 1e-12 --max-iter 300 --precision float64
    gpu_compare "rmat 14 float32" 1e-5 3 --rmat 14 --tol 0 --max-iter 40 --precision float32
    gpu_compare "rmat 12 weighted personalized float64" 1e-9 2 --rmat 12 --weighted --personalization "$TMP/p.tsv" \
        --dangling "$TMP/q.tsv" --tol 1e-12 --max-iter 300 --precision float64
    fails "a device set under mpirun" "drives one device" "${MPIRUN[@]}" -np 2 "$KILN" pagerank --rmat 10 --device cuda:0,0
fi

# ---- signals (issue 36.8): SIGINT to mpirun, and a process killed. Open MPI's mpirun passes a
# SIGINT on as SIGCONT, then SIGTERM odls_base_sigkill_timeout (1 s) later, then SIGKILL as long
# again after, or at once when a process has ended; a process killed ends the job the same way.
# Its SIGTERM must end the processes: they waited in MPI_Finalize, which mpirun ending the job
# never serves, and one blocked in a collective on a killed process never read the interrupt, so
# all lived to the SIGKILL. Each process runs under rank_end.sh, which records how it ended: a
# process that ended at the SIGTERM records 143, one killed with the SIGKILL records nothing. The
# run's time is only bounded (a hang): on a busy 2-core machine mpirun's teardown after its SIGTERM
# took 0.94 s once, against 1 s to its SIGKILL, so time alone could not tell the two apart.
. "$(dirname "$0")/signal_util.sh"
grace=$(ompi_info --param odls base --level 9 2>/dev/null | sed -n 's/.*odls_base_sigkill_timeout" (current value: "\([0-9]*\)".*/\1/p')
limit=$(awk -v g="${grace:-1}" 'BEGIN { print 2 * g + 3 }')
MPISIG=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" mpirun --oversubscribe --bind-to none --mca btl self,vader)
[ "$(id -u)" -eq 0 ] && MPISIG+=(--allow-run-as-root)
ENDS=(sh "$(dirname "$0")/rank_end.sh" "$TMP/ends")
# ended_at_sigterm WHAT: a process ended at mpirun's SIGTERM (kiln's exit on it, 143), so the job
# ended there. Only the first is sure to record it: mpirun SIGKILLs the rest once one has ended.
ended_at_sigterm() {
    awk '$2 == 143 { found = 1 } END { exit !found }' "$TMP/ends" 2>/dev/null && ok ||
        bad "$1: no process ended at mpirun's SIGTERM (exit 143), all lived to its SIGKILL; their ends: $(tr '\n' ' ' <"$TMP/ends" 2>/dev/null)"
}
rm -f "$TMP/ends"
signal_at_line INT "pagerank: iteration [1-9]" "$TMP/out" "$TMP/err" "${MPISIG[@]}" -np 2 "${ENDS[@]}" "$KILN" pagerank \
    --rmat 14 $CPU --tol 0 --max-iter 1000000 --progress
[ "$code" != 0 ] && grep -q "interrupted by SIGTERM" "$TMP/err" && [ ! -s "$TMP/out" ] && ok ||
    bad "SIGINT to mpirun: exit $code, $(tail -c 300 "$TMP/err")"
ended_at_sigterm "SIGINT to mpirun"
within "$limit" && ok || bad "SIGINT to mpirun: the run ended after $took s (mpirun's delay ${grace:-1} s)"
# one process killed while the others wait for it in an exchange
rm -f "$TMP/ends"
kill_one_rank "$TMP/out" "$TMP/err" 30 "${MPISIG[@]}" -np 3 "${ENDS[@]}" "$KILN" pagerank --rmat 14 $CPU --tol 0 \
    --max-iter 1000000 --progress
[ -n "$victim" ] && [ "$code" != 0 ] && within "$limit" && ok ||
    bad "a process SIGKILLed (pid ${victim:-none}): the run ended after $took s, exit $code (mpirun's delay ${grace:-1} s)"
ended_at_sigterm "a process SIGKILLed"

echo "test_mpi_pagerank: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
